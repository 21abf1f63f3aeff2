package dev.teammemory.server.auth;

import dev.teammemory.server.errors.ApiException;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.oidc.UserInfo;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Verifies GitHub tokens with quarkus-oidc: its GitHub provider, as a service application, asks
 * GitHub's {@code /user} endpoint whether an opaque token is valid, and its token cache keeps the
 * answer for {@code TMEM_AUTH_GITHUB_CACHE_TTL} so that GitHub is not asked on every request. The
 * configuration is in {@code application.properties} ({@code quarkus.oidc.*}).
 *
 * <p>quarkus-oidc reports every failure as a failed authentication, including GitHub being
 * unreachable. {@link GitHubUserAnswers} tells GitHub's refusal from its failures, so that an
 * outage is a {@code 503} and not a signal to the daemon that its login is gone.
 */
@ApplicationScoped
class GitHubTokens {

  private static final Logger LOG = Logger.getLogger(GitHubTokens.class);

  private final TenantIdentityProvider oidc;
  private final GitHubMetrics metrics;

  @Inject
  GitHubTokens(TenantIdentityProvider oidc, GitHubMetrics metrics) {
    this.oidc = oidc;
    this.metrics = metrics;
  }

  /**
   * The GitHub user the token belongs to.
   *
   * @return a failed {@code Uni} with an {@link ApiException}: {@code 401} when GitHub rejects the
   *     token, {@code 503} when GitHub cannot answer
   */
  Uni<Caller> identify(String token) {
    if (token.indexOf('.') >= 0) {
      // A JWT, not a GitHub token (GitHub's are opaque, without dots); quarkus-oidc would try to
      // introspect it, which GitHub does not offer, and fail as if GitHub were down.
      return Uni.createFrom().failure(rejected());
    }
    metrics.tokenCheck();
    return oidc.authenticate(new AccessTokenCredential(token))
        .map(GitHubTokens::caller)
        .onFailure(failure -> !(failure instanceof ApiException))
        .transform(this::refusal);
  }

  private static Caller caller(SecurityIdentity identity) {
    UserInfo user = identity.getAttribute("userinfo");
    Long id = user == null ? null : user.getLong("id");
    if (id == null) {
      throw GitHubFailures.unavailable("GitHub's user endpoint answered without a user id");
    }
    return Caller.ofGitHub(identity.getPrincipal().getName(), id);
  }

  /**
   * The refusal {@link GitHubUserAnswers} made of GitHub's answer; without one GitHub never
   * answered (refused connection, timeout, reset), which is an outage too.
   */
  private ApiException refusal(Throwable failure) {
    return GitHubFailures.refusalIn(failure)
        .orElseGet(
            () -> {
              metrics.call(GitHubMetrics.USER, GitHubMetrics.UNAVAILABLE);
              LOG.warnf("GitHub could not verify a token: %s", GitHubFailures.describe(failure));
              return GitHubFailures.unavailable("GitHub could not be reached to verify the token");
            });
  }

  /** The {@code 401} of a token GitHub does not accept. */
  static ApiException rejected() {
    return Authentication.unauthorized(
        "the bearer token is not valid on this server: GitHub does not accept it (run 'tmem"
            + " login' again)");
  }
}
