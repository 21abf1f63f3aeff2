package dev.teammemory.protocol.store;

import dev.teammemory.protocol.UnicodeText;
import java.text.Normalizer;
import java.util.Optional;

/**
 * The Memory Stores API's own rules for a memory's path and content (MEMORY-STORES.md "Paths"),
 * stricter than PROTOCOL.md's key rules: a key {@code team_memory} takes may still be a path this
 * API refuses (deeper than 20 segments, a format character, not NFC) or content it refuses (over
 * 102,400 bytes). The server refuses such writes through the store API in these words; the daemon
 * sends such files through {@code team_memory} instead.
 */
public final class MemoryPathRules {

  public static final int MAX_PATH_BYTES = 1024;
  public static final int MAX_SEGMENTS = 20;
  public static final int MAX_CONTENT_BYTES = 102_400;

  private MemoryPathRules() {}

  /** The memory path of an entry key: {@code a/b.md} is {@code /a/b.md}. */
  public static String pathOf(String key) {
    return "/" + key;
  }

  /**
   * The first of the API's path rules that {@code path} breaks, in the API's words (Claude Code
   * matches them exactly), or empty when it keeps them all.
   */
  public static Optional<String> violation(String path) {
    if (path == null || path.isEmpty()) {
      return Optional.of("path is required");
    }
    // UnicodeText's other rule, no NUL, is kept below: a NUL is a control character.
    if (!UnicodeText.isUnicode(path)) {
      return Optional.of("path must be Unicode text, without unpaired UTF-16 surrogates");
    }
    if (UnicodeText.utf8Length(path) > MAX_PATH_BYTES) {
      return Optional.of("path must be at most 1024 bytes");
    }
    if (!path.startsWith("/")) {
      return Optional.of("path must start with /");
    }
    if (path.equals("/") || path.endsWith("/")) {
      return Optional.of("path must name a memory, not end with /");
    }
    String[] segments = path.substring(1).split("/", -1);
    if (segments.length > MAX_SEGMENTS) {
      return Optional.of("path must be at most 20 segments deep");
    }
    for (String segment : segments) {
      if (segment.equals(".") || segment.equals("..")) {
        return Optional.of("path must not contain . or .. segments");
      }
      if (segment.isEmpty()) {
        return Optional.of("path must not contain empty segments");
      }
    }
    if (hasControlOrFormatCharacter(path)) {
      return Optional.of("path must not contain control or format characters");
    }
    if (!Normalizer.isNormalized(path, Normalizer.Form.NFC)) {
      return Optional.of("path must be NFC-normalized");
    }
    return Optional.empty();
  }

  /**
   * Whether the API takes this entry as a memory: its path keeps the rules and the content is
   * storable text that fits.
   */
  public static boolean accepts(String key, String content) {
    return UnicodeText.violation(content).isEmpty()
        && UnicodeText.utf8Length(content) <= MAX_CONTENT_BYTES
        && violation(pathOf(key)).isEmpty();
  }

  /** A control or format character (Cc, Cf) or a line or paragraph separator. */
  public static boolean hasControlOrFormatCharacter(String text) {
    for (int at = 0; at < text.length(); ) {
      int codePoint = text.codePointAt(at);
      int type = Character.getType(codePoint);
      if (type == Character.CONTROL
          || type == Character.FORMAT
          || codePoint == 0x2028
          || codePoint == 0x2029) {
        return true;
      }
      at += Character.charCount(codePoint);
    }
    return false;
  }
}
