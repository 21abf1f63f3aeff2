package dev.teammemory.server.auth;

import io.quarkus.arc.Unremovable;
import io.quarkus.oidc.common.OidcEndpoint;
import io.quarkus.oidc.common.OidcResponseFilter;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Reads GitHub's answer to quarkus-oidc's user request before quarkus-oidc turns every failure into
 * a failed authentication that keeps only the body. GitHub refusing the token becomes our {@code
 * 401}; a server error, a spent rate limit or an unexpected answer becomes our {@code 503}. {@link
 * GitHubTokens} finds the refusal among the failure's causes.
 */
@ApplicationScoped
@Unremovable // found by quarkus-oidc at run time, never injected
@OidcEndpoint(OidcEndpoint.Type.USERINFO)
class GitHubUserAnswers implements OidcResponseFilter {

  private static final Logger LOG = Logger.getLogger(GitHubUserAnswers.class);

  private final GitHubMetrics metrics;

  @Inject
  GitHubUserAnswers(GitHubMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public Uni<Void> filter(OidcResponseFilterContext response) {
    int status = response.statusCode();
    if (status == 200) {
      metrics.call(GitHubMetrics.USER, GitHubMetrics.OK);
      return Uni.createFrom().voidItem();
    }
    String remaining = response.responseHeaders().get("x-ratelimit-remaining");
    boolean rateLimited = status == 429 || (status == 403 && "0".equals(remaining));
    if (status == 401 || (status == 403 && !rateLimited)) {
      metrics.call(GitHubMetrics.USER, GitHubMetrics.REFUSED);
      throw GitHubTokens.rejected();
    }
    metrics.call(GitHubMetrics.USER, GitHubMetrics.UNAVAILABLE);
    LOG.warnf("GitHub's user endpoint answered %d while verifying a token", status);
    if (rateLimited) {
      throw GitHubFailures.unavailable(
          "GitHub's rate limit is spent, so the token cannot be verified");
    }
    throw GitHubFailures.unavailable(
        "GitHub could not be reached to verify the token (it answered " + status + ")");
  }
}
