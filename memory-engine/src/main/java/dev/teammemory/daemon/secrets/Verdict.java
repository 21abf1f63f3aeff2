package dev.teammemory.daemon.secrets;

import static java.util.Objects.requireNonNull;

import dev.teammemory.secrets.Finding;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** What {@link SecretGuard#check} decided about one memory entry. */
public sealed interface Verdict permits Verdict.Clean, Verdict.Flagged {

  /** No secret found: the entry may leave the machine. */
  record Clean() implements Verdict {}

  /**
   * Secrets found: the entry must not be pushed.
   *
   * @param findings what was found, by rule, line and fingerprint; never the secrets
   * @param markedAllowed whether a {@code gitleaks:allow} comment marks a line of a finding, which
   *     exempts it from {@code tmem scan} of a person's own files but not from team memory
   * @param inPath whether the secrets are in the entry's key (its file's path), not its content
   */
  record Flagged(List<Finding> findings, boolean markedAllowed, boolean inPath) implements Verdict {

    /** What the person reads where a comment was relied on. */
    static final String COMMENT_NOTE = "a gitleaks:allow comment does not exempt team memory";

    public Flagged {
      findings = List.copyOf(requireNonNull(findings, "findings is null"));
      if (findings.isEmpty()) {
        throw new IllegalArgumentException("a flagged entry needs at least one finding");
      }
    }

    public Flagged(List<Finding> findings, boolean markedAllowed) {
      this(findings, markedAllowed, false);
    }

    public Flagged(List<Finding> findings) {
      this(findings, false, false);
    }

    /**
     * The rules that flagged it, for a skip in {@code tmem status}: {@code rule github-pat} or
     * {@code rules a, b}, and the note when a comment was relied on.
     */
    public String summary() {
      Set<String> ids = new TreeSet<>();
      findings.forEach(finding -> ids.add(finding.ruleId()));
      String rules = (ids.size() == 1 ? "rule " : "rules ") + String.join(", ", ids);
      if (inPath) {
        // No comment can be put in a path, and none exempts team memory anyway: said always.
        return "in its path, " + rules + "; rename the file to send it (" + COMMENT_NOTE + ")";
      }
      return rules + note();
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
              .collect(Collectors.joining("; "))
          + note();
    }

    private String note() {
      return markedAllowed ? " (" + COMMENT_NOTE + ")" : "";
    }
  }
}
