package dev.teammemory.daemon.secrets;

import static java.util.Objects.requireNonNull;

import dev.teammemory.secrets.Finding;
import dev.teammemory.secrets.SecretScanner;
import java.util.List;

/**
 * The check the sync engine runs on every entry before it is pushed: nothing a rule flags leaves
 * the machine. The server runs the same default rules on every PUT; this guard is the first line,
 * so a secret is stopped before it travels at all. A {@code gitleaks:allow} comment exempts nothing
 * here, as on the server: the verdict only says that one was relied on. Thread-safe.
 */
public final class SecretGuard {

  /** The scanner, made to mark what a comment allows, so that a verdict can say it was ignored. */
  private final SecretScanner scanner;

  public SecretGuard(SecretScanner scanner) {
    this.scanner = requireNonNull(scanner, "scanner is null").honouringAllowComments();
  }

  /** The guard with the default rules, the set the server enforces. */
  public static SecretGuard withDefaultRules() {
    return new SecretGuard(SecretScanner.defaultRules());
  }

  /**
   * Decides whether an entry may be pushed: its key (the file's path travels too) and its content.
   *
   * @param key the entry's key, the path under {@code memory/team/}
   * @param content the entry's content
   */
  public Verdict check(String key, String content) {
    requireNonNull(key, "key is null");
    requireNonNull(content, "content is null");
    List<Finding> inPath = scanner.scan(key);
    if (!inPath.isEmpty()) {
      return new Verdict.Flagged(inPath, inPath.stream().anyMatch(Finding::allowed), true);
    }
    // Allowed or not, every finding flags the entry.
    List<Finding> findings = scanner.scan(content);
    return findings.isEmpty()
        ? new Verdict.Clean()
        : new Verdict.Flagged(findings, findings.stream().anyMatch(Finding::allowed));
  }

  /** {@code text} with every secret the rules find masked: a key that holds one, for a log line. */
  public String redact(String text) {
    return scanner.redact(requireNonNull(text, "text is null"));
  }
}
