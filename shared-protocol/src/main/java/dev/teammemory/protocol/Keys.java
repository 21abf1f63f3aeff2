package dev.teammemory.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.text.Normalizer;
import java.util.Optional;

/**
 * The protocol's key rules. A key is a relative, {@code /}-separated path under the client's {@code
 * memory/team/} folder; anything that could climb out of it, hide a separator behind an encoding,
 * or smuggle a control character or text that is not Unicode ({@link UnicodeText}) in is rejected.
 * Servers apply these to every PUT; clients apply them to every key that comes from a server before
 * touching the disk.
 */
public final class Keys {

  public static final int MAX_KEY_BYTES = 512;

  private Keys() {}

  /** Why the key is not acceptable, or empty when it is. The reason never repeats the key. */
  public static Optional<String> violation(String key) {
    if (key == null || key.isEmpty()) {
      return Optional.of("key is empty");
    }
    Optional<String> notText = UnicodeText.violation(key);
    if (notText.isPresent()) {
      return notText.map(reason -> "key " + reason);
    }
    if (UnicodeText.utf8Length(key) > MAX_KEY_BYTES) {
      return Optional.of("key is longer than " + MAX_KEY_BYTES + " UTF-8 bytes");
    }
    if (key.startsWith("/")) {
      return Optional.of("key starts with '/' (keys are relative paths)");
    }
    if (key.indexOf('\\') >= 0) {
      return Optional.of("key contains a backslash");
    }
    for (int i = 0; i < key.length(); i++) {
      if (Character.isISOControl(key.charAt(i))) {
        return Optional.of(
            "key contains a control character (U+%04X)".formatted((int) key.charAt(i)));
      }
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return Optional.of("key has an empty, '.' or '..' path segment");
      }
    }
    String decoded = percentDecode(key);
    if (!decoded.equals(key) && introducesSeparator(key, decoded)) {
      return Optional.of("key hides '/', '\\', '..' or NUL behind %-escapes");
    }
    String normalized = Normalizer.normalize(key, Normalizer.Form.NFKC);
    if (!normalized.equals(key) && introducesSeparator(key, normalized)) {
      return Optional.of("key turns into '/', '\\', '..' or NUL under Unicode NFKC normalisation");
    }
    return Optional.empty();
  }

  public static boolean isValid(String key) {
    return violation(key).isEmpty();
  }

  /**
   * True when {@code changed} holds more path separators, dot-dots or NULs than {@code original}:
   * an encoding that was hiding them.
   */
  private static boolean introducesSeparator(String original, String changed) {
    return count(changed, "/") > count(original, "/")
        || count(changed, "..") > count(original, "..")
        || changed.indexOf('\\') >= 0
        || changed.indexOf('\0') >= 0;
  }

  private static int count(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }

  /**
   * Decodes {@code %XX} escapes as UTF-8, leaving {@code +} alone. A malformed escape makes the
   * whole key literal (returned unchanged), as the protocol says: {@code 100%.md} is a fine key.
   */
  static String percentDecode(String key) {
    if (key.indexOf('%') < 0) {
      return key;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < key.length(); ) {
      char c = key.charAt(i);
      if (c == '%') {
        if (i + 2 >= key.length()) {
          return key;
        }
        int high = Character.digit(key.charAt(i + 1), 16);
        int low = Character.digit(key.charAt(i + 2), 16);
        if (high < 0 || low < 0) {
          return key;
        }
        bytes.write(high * 16 + low);
        i += 3;
      } else {
        int codePoint = key.codePointAt(i);
        bytes.writeBytes(new String(Character.toChars(codePoint)).getBytes(UTF_8));
        i += Character.charCount(codePoint);
      }
    }
    return bytes.toString(UTF_8);
  }
}
