package dev.teammemory.server.auth;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A bearer token as the server keeps it: the hex SHA-256 of its UTF-8 bytes, so that a heap dump, a
 * database row or an error message can never show the token itself.
 */
final class TokenDigest {

  private TokenDigest() {}

  static String of(String token) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
