package dev.teammemory.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * ETag quoting as the protocol fixes it: clients send checksums in double quotes, servers strip
 * surrounding quotes and a leading {@code W/} before comparing, and always emit the ETag quoted.
 */
public final class ETags {

  private ETags() {}

  /** {@code sha256:…} becomes {@code "sha256:…"}. */
  public static String quote(String checksum) {
    return '"' + unquote(checksum) + '"';
  }

  /** Strips surrounding white space, a leading {@code W/} and one pair of double quotes. */
  public static String unquote(String value) {
    String trimmed = value.strip();
    if (trimmed.startsWith("W/")) {
      trimmed = trimmed.substring(2).strip();
    }
    if (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
      trimmed = trimmed.substring(1, trimmed.length() - 1);
    }
    return trimmed;
  }

  /** The unquoted values of a comma-separated {@code If-None-Match} or {@code If-Match} header. */
  public static List<String> parseList(String header) {
    List<String> values = new ArrayList<>();
    if (header == null) {
      return values;
    }
    for (String part : header.split(",")) {
      String value = unquote(part);
      if (!value.isEmpty()) {
        values.add(value);
      }
    }
    return values;
  }

  /** True when the header lists {@code checksum} (or is {@code *}). */
  public static boolean matches(String header, String checksum) {
    List<String> values = parseList(header);
    return values.contains("*") || values.contains(checksum);
  }
}
