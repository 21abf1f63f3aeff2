package dev.teammemory.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The protocol's {@code sha256:} checksums of one entry and of a whole repository. */
public final class Checksums {

  public static final String PREFIX = "sha256:";

  /** The checksum of the empty string, which is also the checksum of a never-written repository. */
  public static final String EMPTY =
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  /**
   * Sorts keys the way the repository checksum needs: by their UTF-8 bytes, unsigned. UTF-8 byte
   * order is code point order, so this compares code points and encodes nothing (it runs for every
   * key of every body a server sends).
   */
  public static final Comparator<String> UTF8_BYTE_ORDER = Checksums::compareCodePoints;

  private Checksums() {}

  /** {@code "sha256:" + hex(SHA-256(utf8(content)))}. */
  public static String ofContent(String content) {
    requireNonNull(content, "content is null");
    return PREFIX + HexFormat.of().formatHex(sha256().digest(content.getBytes(UTF_8)));
  }

  /**
   * The repository checksum (its ETag): SHA-256 over {@code "key\tentryChecksum\n"} for every
   * entry, sorted by key in UTF-8 byte order. Empty map gives {@link #EMPTY}.
   */
  public static String ofRepository(Map<String, String> entryChecksums) {
    requireNonNull(entryChecksums, "entryChecksums is null");
    List<String> keys = new ArrayList<>(entryChecksums.keySet());
    keys.sort(UTF8_BYTE_ORDER);
    MessageDigest digest = sha256();
    for (String key : keys) {
      digest.update((key + '\t' + entryChecksums.get(key) + '\n').getBytes(UTF_8));
    }
    return PREFIX + HexFormat.of().formatHex(digest.digest());
  }

  /**
   * Decodes file bytes as UTF-8, replacing malformed sequences with U+FFFD, as the protocol asks of
   * a client reading a file that is not valid UTF-8.
   */
  public static String decodeLeniently(byte[] bytes) {
    return new String(bytes, UTF_8);
  }

  /** True when the bytes are valid UTF-8 (so decoding them loses nothing). */
  public static boolean isValidUtf8(byte[] bytes) {
    try {
      UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** True for a well-formed {@code sha256:} followed by 64 lowercase hex digits. */
  public static boolean isChecksum(String value) {
    return value != null && value.matches("sha256:[0-9a-f]{64}");
  }

  private static int compareCodePoints(String left, String right) {
    int at = 0;
    int end = Math.min(left.length(), right.length());
    while (at < end) {
      int leftCodePoint = left.codePointAt(at);
      int rightCodePoint = right.codePointAt(at);
      if (leftCodePoint != rightCodePoint) {
        return Integer.compare(leftCodePoint, rightCodePoint);
      }
      at += Character.charCount(leftCodePoint);
    }
    return Integer.compare(left.length(), right.length());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
