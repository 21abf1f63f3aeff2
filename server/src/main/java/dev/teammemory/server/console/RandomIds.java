package dev.teammemory.server.console;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Unguessable ids (session ids, CSRF tokens, sign-in codes) and what the database keeps of them.
 */
final class RandomIds {

  private static final SecureRandom RANDOM = new SecureRandom();

  private RandomIds() {}

  /** 256 random bits, URL-safe. */
  static String next() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The SHA-256 of an id, in hex: what a table keeps, so that its rows open nothing. */
  static String hash(String id) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(id.getBytes(UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /** Compares two secrets in time independent of where they differ. */
  static boolean same(String expected, String given) {
    return given != null && MessageDigest.isEqual(expected.getBytes(UTF_8), given.getBytes(UTF_8));
  }
}
