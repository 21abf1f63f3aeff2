package dev.teammemory.daemon.sync;

/** Makes a key safe to print: a key from a hostile server may hold control characters. */
public final class Display {

  private Display() {}

  public static String key(String key) {
    StringBuilder out = new StringBuilder(key.length() + 2);
    key.codePoints()
        .forEach(
            c -> {
              if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                out.append("\\u%04X".formatted(c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }
}
