package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Checks shared by the wire records' compact constructors. */
final class Wire {

  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Wire() {}

  static String checksum(String value, String field) {
    if (!Checksums.isChecksum(value)) {
      throw new IllegalArgumentException(field + " is not a sha256: checksum: " + value);
    }
    return value;
  }

  static String timestamp(String value, String field) {
    requireNonNull(value, field + " is null");
    try {
      Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(field + " is not an ISO-8601 instant: " + value, e);
    }
    return value;
  }

  static long version(long value, String field) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " is negative: " + value);
    }
    return value;
  }

  /** An unmodifiable copy sorted by key, so bodies serialise the same way every time. */
  static <V> Map<String, V> sortedCopy(Map<String, V> map, String field) {
    requireNonNull(map, field + " is null");
    Map<String, V> sorted = new TreeMap<>(Checksums.UTF8_BYTE_ORDER);
    map.forEach(
        (key, value) -> {
          requireNonNull(key, field + " has a null key");
          requireNonNull(value, field + " has a null value for a key");
          sorted.put(key, value);
        });
    return Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
  }

  static <V> Map<String, V> sortedCopyOrEmpty(Map<String, V> map, String field) {
    return map == null ? Map.of() : sortedCopy(map, field);
  }

  /** ISO-8601 UTC with milliseconds, as {@code lastModified} requires. */
  static String format(Instant instant) {
    return MILLIS.format(instant);
  }
}
