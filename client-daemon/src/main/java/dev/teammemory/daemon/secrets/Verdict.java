package dev.teammemory.daemon.secrets;

import static java.util.Objects.requireNonNull;

import dev.teammemory.secrets.Finding;
import java.util.List;
import java.util.stream.Collectors;

/** What {@link SecretGuard#check} decided about one memory entry. */
public sealed interface Verdict permits Verdict.Clean, Verdict.Flagged {

  /** No secret found: the entry may leave the machine. */
  record Clean() implements Verdict {}

  /**
   * Secrets found: the entry must not be pushed.
   *
   * @param findings what was found, by rule, line and fingerprint; never the secrets
   */
  record Flagged(List<Finding> findings) implements Verdict {

    public Flagged {
      findings = List.copyOf(requireNonNull(findings, "findings is null"));
      if (findings.isEmpty()) {
        throw new IllegalArgumentException("a flagged entry needs at least one finding");
      }
    }

    /**
     * One line for {@code tmem status} and logs: {@code github-pat (GitHub PAT) at line 3, column
     * 7, fingerprint 1a2b3c4d5e6f}, findings separated by {@code "; "}.
     */
    public String describe() {
      return findings.stream()
          .map(
              finding ->
                  finding.ruleId()
                      + " ("
                      + finding.label()
                      + ") at line "
                      + finding.line()
                      + ", column "
                      + finding.column()
                      + ", fingerprint "
                      + finding.fingerprint())
          .collect(Collectors.joining("; "));
    }
  }
}
