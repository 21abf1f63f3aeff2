package dev.teammemory.server.secrets;

import dev.teammemory.secrets.Finding;
import dev.teammemory.secrets.SecretScanner;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server's last line of defence: every entry of every PUT goes through the same default secret
 * rules the clients use, because a client can be modified. The one place the server calls the
 * {@code secret-rules} module.
 */
@ApplicationScoped
public class SecretCheck {

  private final SecretScanner scanner = SecretScanner.defaultRules();

  /** Every secret in the entries, by key in the map's order and then by position. */
  public List<SecretFinding> scan(Map<String, String> entries) {
    List<SecretFinding> findings = new ArrayList<>();
    entries.forEach(
        (key, content) -> {
          for (Finding finding : scanner.scan(content)) {
            findings.add(
                new SecretFinding(key, finding.ruleId(), finding.line(), finding.fingerprint()));
          }
        });
    return List.copyOf(findings);
  }
}
