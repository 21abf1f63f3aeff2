package dev.teammemory.server.secrets;

import static java.util.Objects.requireNonNull;

/**
 * A secret found in one entry of a PUT: the key, the rule and the line, and a fingerprint for the
 * server's log. Never the matched text.
 */
public record SecretFinding(String key, String ruleId, int line, String fingerprint) {

  public SecretFinding {
    requireNonNull(key, "key is null");
    requireNonNull(ruleId, "ruleId is null");
    requireNonNull(fingerprint, "fingerprint is null");
    if (line < 1) {
      throw new IllegalArgumentException("line is not positive: " + line);
    }
  }
}
