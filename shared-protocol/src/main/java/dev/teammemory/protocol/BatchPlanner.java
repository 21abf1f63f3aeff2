package dev.teammemory.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Packs a push delta into PUT bodies the way the reference client does, so that a server sized for
 * it sees the same requests from us: keys sorted, batches filled greedily up to {@link
 * #MAX_BATCH_BYTES}, an entry too large for any batch sent alone.
 *
 * <p>Sizes are counted as the protocol fixes them, not as our JSON writer happens to produce them:
 * 14 bytes for {@code {"entries":{}}} plus, per entry, the UTF-8 length of the key and of the value
 * each encoded as JavaScript's {@code JSON.stringify} encodes a string, plus 2.
 */
public final class BatchPlanner {

  /** The most bytes one PUT body may hold by the protocol's accounting. */
  public static final int MAX_BATCH_BYTES = 200_000;

  /** The length of {@code {"entries":{}}}, the part every batch carries. */
  static final int EMPTY_BODY_BYTES = 14;

  private BatchPlanner() {}

  /**
   * Splits {@code delta} into batches in key order. Every batch but one holding a single oversized
   * entry is at most {@code maxBatchBytes} by the protocol's accounting; an empty delta gives no
   * batches. The batches are unmodifiable and iterate in key order.
   */
  public static List<Map<String, String>> plan(Map<String, String> delta, int maxBatchBytes) {
    requireNonNull(delta, "delta is null");
    if (maxBatchBytes < EMPTY_BODY_BYTES) {
      throw new IllegalArgumentException(
          "maxBatchBytes is smaller than an empty body ("
              + EMPTY_BODY_BYTES
              + "): "
              + maxBatchBytes);
    }
    List<String> keys = new ArrayList<>(delta.size());
    for (Map.Entry<String, String> entry : delta.entrySet()) {
      requireNonNull(entry.getKey(), "delta has a null key");
      requireNonNull(entry.getValue(), "delta has a null value for key " + entry.getKey());
      keys.add(entry.getKey());
    }
    // The reference client sorts with JavaScript's default order: UTF-16 code units, as String
    // does.
    Collections.sort(keys);

    List<Map<String, String>> batches = new ArrayList<>();
    Map<String, String> batch = new LinkedHashMap<>();
    long batchBytes = EMPTY_BODY_BYTES;
    for (String key : keys) {
      String value = delta.get(key);
      long bytes = entryBytes(key, value);
      if (!batch.isEmpty() && batchBytes + bytes > maxBatchBytes) {
        batches.add(Collections.unmodifiableMap(batch));
        batch = new LinkedHashMap<>();
        batchBytes = EMPTY_BODY_BYTES;
      }
      batch.put(key, value);
      batchBytes += bytes;
    }
    if (!batch.isEmpty()) {
      batches.add(Collections.unmodifiableMap(batch));
    }
    return List.copyOf(batches);
  }

  /**
   * What one entry adds to a batch: the UTF-8 length of the JSON-encoded key and value (quotes
   * included) plus 2, for the colon and the comma.
   */
  public static long entryBytes(String key, String value) {
    requireNonNull(key, "key is null");
    requireNonNull(value, "value is null");
    return encodedLength(key) + encodedLength(value) + 2;
  }

  /**
   * The PUT body of one batch exactly as the reference client writes it: {@code {"entries":{…}}}
   * with the keys in plan order and every string encoded as {@code JSON.stringify} encodes it, so
   * that its length is what {@link #plan} counted (less the one comma it charges the last entry).
   * Jackson's writer would differ: it escapes characters outside the Basic Multilingual Plane.
   */
  public static byte[] body(Map<String, String> batch) {
    requireNonNull(batch, "batch is null");
    List<String> keys = new ArrayList<>(batch.keySet());
    Collections.sort(keys);
    StringBuilder body = new StringBuilder("{\"entries\":{");
    for (String key : keys) {
      String value = requireNonNull(batch.get(key), "batch has a null value for key " + key);
      if (body.length() > "{\"entries\":{".length()) {
        body.append(',');
      }
      appendJson(body, key);
      body.append(':');
      appendJson(body, value);
    }
    // Lone surrogates are escaped above, so encoding replaces nothing.
    return body.append("}}").toString().getBytes(UTF_8);
  }

  /**
   * The UTF-8 length of {@code JSON.stringify(text)}: two quotes; {@code "} and {@code \} escaped
   * with a backslash; {@code \b \f \n \r \t} in their short forms; other characters below U+0020
   * and lone surrogates as six-character {@code \}{@code uXXXX} escapes; everything else as its
   * UTF-8 bytes (so U+007F, U+2028 and U+2029 are not escaped).
   */
  static long encodedLength(String text) {
    long length = 2;
    int index = 0;
    while (index < text.length()) {
      char c = text.charAt(index);
      if (shortEscape(c) != 0) {
        length += 2;
      } else if (c < 0x20) {
        length += 6;
      } else if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (isPairAt(text, index)) {
        length += 4;
        index++;
      } else if (Character.isSurrogate(c)) {
        length += 6;
      } else {
        length += 3;
      }
      index++;
    }
    return length;
  }

  /** Appends {@code JSON.stringify(text)}, by the rules {@link #encodedLength} counts. */
  static void appendJson(StringBuilder out, String text) {
    out.append('"');
    int index = 0;
    while (index < text.length()) {
      char c = text.charAt(index);
      char escape = shortEscape(c);
      if (escape != 0) {
        out.append('\\').append(escape);
      } else if (c < 0x20 || (Character.isSurrogate(c) && !isPairAt(text, index))) {
        out.append("\\u").append(HexFormat.of().toHexDigits(c));
      } else if (isPairAt(text, index)) {
        out.append(c).append(text.charAt(index + 1));
        index++;
      } else {
        out.append(c);
      }
      index++;
    }
    out.append('"');
  }

  private static char shortEscape(char c) {
    return switch (c) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '\b' -> 'b';
      case '\f' -> 'f';
      case '\n' -> 'n';
      case '\r' -> 'r';
      case '\t' -> 't';
      default -> 0;
    };
  }

  private static boolean isPairAt(String text, int index) {
    return Character.isHighSurrogate(text.charAt(index))
        && index + 1 < text.length()
        && Character.isLowSurrogate(text.charAt(index + 1));
  }
}
