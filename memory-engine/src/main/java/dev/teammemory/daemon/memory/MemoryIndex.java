package dev.teammemory.daemon.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.TextFiles;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code MEMORY.md} as an agent is given it: at most {@value #MAX_LINES} lines and {@value
 * #MAX_CHARACTERS} characters, cut at a line boundary, with a warning naming the limit that was
 * hit. The index is always in the agent's context, so it is kept short; detail belongs in topic
 * files.
 *
 * @param content the text to give the agent, warning included
 * @param lineCount lines in the whole file (after trimming)
 * @param characterCount characters in the whole file (after trimming)
 */
public record MemoryIndex(
    Path file,
    String content,
    int lineCount,
    int characterCount,
    boolean truncatedByLines,
    boolean truncatedByCharacters) {

  public static final int MAX_LINES = 200;
  public static final int MAX_CHARACTERS = 25_000;

  public MemoryIndex {
    requireNonNull(file, "file is null");
    requireNonNull(content, "content is null");
  }

  public boolean truncated() {
    return truncatedByLines || truncatedByCharacters;
  }

  /**
   * The index at {@code file}, or empty when it is missing or blank. The file is read once, as a
   * stream: only what can be shown is kept, however large it is; bytes that are not UTF-8 become
   * U+FFFD.
   */
  public static Optional<MemoryIndex> load(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    StringBuilder kept = new StringBuilder();
    long characters = 0;
    long newlines = 0;
    long trailingWhitespace = 0;
    long trailingNewlines = 0;
    boolean started = false;
    try (Reader reader = TextFiles.reader(file)) {
      char[] buffer = new char[8192];
      for (int read = reader.read(buffer); read >= 0; read = reader.read(buffer)) {
        for (int i = 0; i < read; i++) {
          char c = buffer[i];
          boolean whitespace = Character.isWhitespace(c);
          if (!started) {
            if (whitespace) {
              continue;
            }
            started = true;
          }
          characters++;
          if (c == '\n') {
            newlines++;
          }
          if (whitespace) {
            trailingWhitespace++;
            trailingNewlines += c == '\n' ? 1 : 0;
          } else {
            trailingWhitespace = 0;
            trailingNewlines = 0;
          }
          if (kept.length() <= MAX_CHARACTERS) {
            kept.append(c);
          }
        }
      }
    } catch (NoSuchFileException absent) {
      return Optional.empty();
    }
    if (!started) {
      return Optional.empty();
    }
    String head = kept.toString().strip();
    long characterCount = characters - trailingWhitespace;
    long lineCount = newlines - trailingNewlines + 1;
    return Optional.of(
        of(file, head, (int) Math.min(lineCount, Integer.MAX_VALUE), characterCount));
  }

  /**
   * Applies the limits to an index's text, as the reference's {@code truncateEntrypointContent}.
   */
  public static MemoryIndex of(Path file, String raw) {
    String trimmed = raw.strip();
    return of(file, trimmed, trimmed.split("\n", -1).length, trimmed.length());
  }

  /**
   * @param head the stripped text, or at least its first {@value #MAX_CHARACTERS} characters and
   *     one more
   * @param lineCount lines in the whole stripped text
   * @param characters characters in the whole stripped text
   */
  private static MemoryIndex of(Path file, String head, int lineCount, long characters) {
    String trimmed = head;
    String[] lines = trimmed.split("\n", -1);
    int characterCount = (int) Math.min(characters, Integer.MAX_VALUE);
    boolean byLines = lineCount > MAX_LINES;
    // The original size decides the warning: long lines are what this limit is for, and the size
    // after cutting lines would understate them.
    boolean byCharacters = characterCount > MAX_CHARACTERS;
    if (!byLines && !byCharacters) {
      return new MemoryIndex(file, trimmed, lineCount, characterCount, false, false);
    }
    String truncated =
        byLines
            ? String.join("\n", Arrays.copyOf(lines, Math.min(MAX_LINES, lines.length)))
            : trimmed;
    if (truncated.length() > MAX_CHARACTERS) {
      int cutAt = truncated.lastIndexOf('\n', MAX_CHARACTERS);
      truncated = truncated.substring(0, cutAt > 0 ? cutAt : MAX_CHARACTERS);
    }
    String reason;
    if (byCharacters && !byLines) {
      reason =
          fileSize(characterCount)
              + " (limit: "
              + fileSize(MAX_CHARACTERS)
              + ") — index entries are too long";
    } else if (byLines && !byCharacters) {
      reason = lineCount + " lines (limit: " + MAX_LINES + ")";
    } else {
      reason = lineCount + " lines and " + fileSize(characterCount);
    }
    String content =
        truncated
            + "\n\n> WARNING: "
            + MemoryLocation.INDEX_FILE
            + " is "
            + reason
            + ". Only part of it was loaded. Keep index entries to one line under ~200 chars; move"
            + " detail into topic files.";
    return new MemoryIndex(file, content, lineCount, characterCount, byLines, byCharacters);
  }

  /** The reference's {@code formatFileSize}: bytes, then KB and MB with one decimal. */
  static String fileSize(long bytes) {
    double kilobytes = bytes / 1024.0;
    if (kilobytes < 1) {
      return bytes + " bytes";
    }
    if (kilobytes < 1024) {
      return oneDecimal(kilobytes) + "KB";
    }
    double megabytes = kilobytes / 1024;
    if (megabytes < 1024) {
      return oneDecimal(megabytes) + "MB";
    }
    return oneDecimal(megabytes / 1024) + "GB";
  }

  private static String oneDecimal(double value) {
    String text = String.format(Locale.ROOT, "%.1f", value);
    return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
  }
}
