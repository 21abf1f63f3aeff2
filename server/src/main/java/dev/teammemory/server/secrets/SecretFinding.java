package dev.teammemory.server.secrets;

import static java.util.Objects.requireNonNull;

import dev.teammemory.secrets.Finding;

/**
 * A secret found in one entry of a write: the key as the caller may be shown it (its own secrets
 * redacted, see {@link SecretCheck#printable}), whether the key itself is clean (only then may a
 * log line name it), whether the secret is in the key or the content, the rule, the line, and a
 * fingerprint for the server's log. Never the matched text.
 */
public record SecretFinding(
    String key, boolean keyClean, Part part, String ruleId, int line, String fingerprint) {

  /** Where in the entry the secret is. */
  public enum Part {
    KEY,
    CONTENT;

    /** As the protocol's error details and the log name it. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public SecretFinding {
    requireNonNull(key, "key is null");
    requireNonNull(part, "part is null");
    requireNonNull(ruleId, "ruleId is null");
    requireNonNull(fingerprint, "fingerprint is null");
    if (line < 1) {
      throw new IllegalArgumentException("line is not positive: " + line);
    }
  }

  static SecretFinding of(String key, boolean keyClean, Part part, Finding finding) {
    return new SecretFinding(
        key, keyClean, part, finding.ruleId(), finding.line(), finding.fingerprint());
  }
}
