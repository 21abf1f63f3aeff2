package dev.teammemory.secrets;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One secret found in a text, described without the secret itself, so that it may be logged,
 * printed and sent over the wire.
 *
 * @param ruleId the gitleaks-style id of the rule that found it ({@code github-pat})
 * @param label the rule's name for people ({@code GitHub PAT})
 * @param line the 1-based line of the secret's first character; lines end at {@code '\n'}
 * @param column the 1-based column of the secret's first character, counted in UTF-16 code units
 *     (Java {@code char}s) from the start of its line, so a character outside the Basic
 *     Multilingual Plane counts as two
 * @param fingerprint the first 12 hex digits of the SHA-256 of the secret's UTF-8 bytes: two
 *     reports of the same secret carry the same fingerprint, and it does not reveal the secret
 * @param allowed whether a {@code gitleaks:allow} comment on its line exempts it; only a scanner
 *     that honours such comments ({@link SecretScanner#honouringAllowComments()}) says so
 */
public record Finding(
    String ruleId, String label, int line, int column, String fingerprint, boolean allowed) {

  private static final int FINGERPRINT_LENGTH = 12;

  public Finding {
    requireNonNull(ruleId, "ruleId is null");
    requireNonNull(label, "label is null");
    requireNonNull(fingerprint, "fingerprint is null");
    if (ruleId.isBlank()) {
      throw new IllegalArgumentException("ruleId is blank");
    }
    if (line < 1) {
      throw new IllegalArgumentException("line must be 1 or more: " + line);
    }
    if (column < 1) {
      throw new IllegalArgumentException("column must be 1 or more: " + column);
    }
    if (!fingerprint.matches("[0-9a-f]{" + FINGERPRINT_LENGTH + "}")) {
      throw new IllegalArgumentException(
          "fingerprint is not 12 lower-case hex digits: " + fingerprint);
    }
  }

  /** A finding no comment exempts. */
  public Finding(String ruleId, String label, int line, int column, String fingerprint) {
    this(ruleId, label, line, column, fingerprint, false);
  }

  /** The fingerprint of a secret: the first 12 hex digits of the SHA-256 of its UTF-8 bytes. */
  static String fingerprintOf(String secret) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, FINGERPRINT_LENGTH / 2);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
