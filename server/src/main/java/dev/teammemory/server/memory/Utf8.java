package dev.teammemory.server.memory;

/** UTF-8 lengths without encoding: entries are counted on every PUT. */
final class Utf8 {

  private Utf8() {}

  /** The UTF-8 byte length of {@code text}, or -1 when it holds an unpaired surrogate. */
  static long length(String text) {
    long bytes = 0;
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        if (i + 1 >= length || !Character.isLowSurrogate(text.charAt(i + 1))) {
          return -1;
        }
        bytes += 4;
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return -1;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
