package dev.teammemory.server.secrets;

import dev.teammemory.secrets.Finding;
import dev.teammemory.secrets.SecretScanner;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server's last line of defence: every text a caller sends to be kept (an entry's key and
 * content, a memory's path, a store's name, description and metadata) goes through the same default
 * secret rules the clients use, because a client can be modified. A {@code gitleaks:allow} comment
 * exempts nothing here. The one place the server calls the {@code secret-rules} module.
 */
@ApplicationScoped
public class SecretCheck {

  private final SecretScanner scanner = SecretScanner.defaultRules();

  /**
   * Every secret in the entries, by key in the map's order: those in the key itself first, then
   * those in its content by position. A finding names its key as {@link #printable} shows it, and
   * says whether the key itself is clean (only then may a log line name it).
   */
  public List<SecretFinding> scan(Map<String, String> entries) {
    List<SecretFinding> findings = new ArrayList<>();
    entries.forEach(
        (key, content) -> {
          List<Finding> inKey = scanner.scan(key);
          String shown = inKey.isEmpty() ? key : scanner.redact(key);
          boolean keyClean = inKey.isEmpty();
          for (Finding finding : inKey) {
            findings.add(SecretFinding.of(shown, keyClean, SecretFinding.Part.KEY, finding));
          }
          for (Finding finding : scanner.scan(content)) {
            findings.add(SecretFinding.of(shown, keyClean, SecretFinding.Part.CONTENT, finding));
          }
        });
    return List.copyOf(findings);
  }

  /** Every secret in one text, such as a path or a store's description. */
  public List<Finding> scan(String text) {
    return scanner.scan(text);
  }

  /**
   * The text as an error message may show it to the caller who sent it: as it is when no rule flags
   * it, else with each secret replaced by {@code [REDACTED]}.
   */
  public String printable(String text) {
    return scanner.redact(text);
  }

  /**
   * How a log line names a key: {@code key notes/a.md} once no rule flags it; else not at all, not
   * even redacted (the rest of such a key is no one's business in a log), but by the rule and the
   * fingerprint of its secret.
   */
  public String keyInLog(String key) {
    List<Finding> findings = scanner.scan(key);
    if (findings.isEmpty()) {
      return "key " + key;
    }
    Finding first = findings.getFirst();
    return "a key that holds a secret (rule "
        + first.ruleId()
        + ", fingerprint "
        + first.fingerprint()
        + ")";
  }
}
