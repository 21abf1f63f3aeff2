package dev.teammemory.protocol;

import java.util.Optional;

/**
 * The one rule for text a server stores, in both APIs: content, keys, paths and every other string
 * field. It must be Unicode text, so no unpaired UTF-16 surrogate (UTF-8 has no encoding of one,
 * and a Java encoder turns it into {@code ?}), and it must hold no NUL (U+0000), which PostgreSQL's
 * {@code text} cannot store. Beside the key rules because clients check server keys with it too.
 */
public final class UnicodeText {

  private UnicodeText() {}

  /**
   * Why the text cannot be stored, as the end of a sentence about it ("the content " + reason), or
   * empty when it can. The reason never repeats the text.
   */
  public static Optional<String> violation(String text) {
    if (!isUnicode(text)) {
      return Optional.of("holds an unpaired UTF-16 surrogate, which is not Unicode text");
    }
    if (text.indexOf('\0') >= 0) {
      return Optional.of("holds a NUL character (U+0000), which the server cannot store");
    }
    return Optional.empty();
  }

  /**
   * The UTF-8 byte length of {@code text}, counted without encoding it (entries are counted on
   * every write).
   *
   * @throws IllegalArgumentException when the text holds an unpaired surrogate, which has no UTF-8
   *     length: {@link #violation} refuses such text first
   */
  public static long utf8Length(String text) {
    long bytes = 0;
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c)
            || i + 1 >= length
            || !Character.isLowSurrogate(text.charAt(i + 1))) {
          throw new IllegalArgumentException("unpaired UTF-16 surrogate at index " + i);
        }
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /** Whether every surrogate of the text is paired: it is Unicode text (it may hold a NUL). */
  public static boolean isUnicode(String text) {
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else {
        return false;
      }
    }
    return true;
  }
}
