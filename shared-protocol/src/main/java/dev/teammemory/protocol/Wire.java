package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  /**
   * An unmodifiable copy sorted by key, so bodies serialise the same way every time. Sorted with a
   * merge sort, which takes one comparison per key when the map is already in order (a server reads
   * its keys in that order).
   */
  static <V> Map<String, V> sortedCopy(Map<String, V> map, String field) {
    requireNonNull(map, field + " is null");
    List<Map.Entry<String, V>> entries = new ArrayList<>(map.size());
    map.forEach(
        (key, value) -> {
          requireNonNull(key, field + " has a null key");
          requireNonNull(value, field + " has a null value for a key");
          entries.add(Map.entry(key, value));
        });
    entries.sort(Map.Entry.comparingByKey(Checksums.UTF8_BYTE_ORDER));
    Map<String, V> sorted = LinkedHashMap.newLinkedHashMap(entries.size());
    entries.forEach(entry -> sorted.put(entry.getKey(), entry.getValue()));
    return Collections.unmodifiableMap(sorted);
  }

  static <V> Map<String, V> sortedCopyOrEmpty(Map<String, V> map, String field) {
    return map == null ? Map.of() : sortedCopy(map, field);
  }

  /** ISO-8601 UTC with milliseconds, as {@code lastModified} requires. */
  static String format(Instant instant) {
    return MILLIS.format(instant);
  }
}
