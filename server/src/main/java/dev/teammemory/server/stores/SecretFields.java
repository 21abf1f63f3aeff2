package dev.teammemory.server.stores;

import dev.teammemory.secrets.Finding;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.errors.StoreApiException;
import dev.teammemory.server.secrets.SecretCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The Memory Stores API's refusal of a secret in any field it keeps (a memory's path and content, a
 * store's name, description and metadata): {@code 400 invalid_request_error} in the words Claude
 * Code matches for content, naming the field and never the match. The log names the rule, the field
 * and a fingerprint.
 */
@ApplicationScoped
class SecretFields {

  private static final Logger LOG = Logger.getLogger(SecretFields.class);

  private final SecretCheck secrets;
  private final RepositoryAuthorization authorization;

  @Inject
  SecretFields(SecretCheck secrets, RepositoryAuthorization authorization) {
    this.secrets = secrets;
    this.authorization = authorization;
  }

  /** The refusal of a secret in {@code field} ("memory content", "memory path", …). */
  static StoreApiException refusal(String field) {
    return StoreApiException.invalid(message(field));
  }

  /** The message of that refusal; for content, the one Claude Code matches exactly. */
  static String message(String field) {
    return field
        + " appears to contain a credential or API key; remove it before writing. If the"
        + " credential is real, rotate it.";
  }

  /** Refuses the text of {@code field} when a rule flags it. */
  void requireNone(String field, String text) {
    List<Finding> findings = secrets.scan(text);
    if (findings.isEmpty()) {
      return;
    }
    for (Finding finding : findings) {
      LOG.infof(
          "Refused a write by %s: rule %s found a secret in the %s (fingerprint %s)",
          authorization.caller().user(), finding.ruleId(), field, finding.fingerprint());
    }
    throw refusal(field);
  }
}
