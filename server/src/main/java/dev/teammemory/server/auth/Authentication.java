package dev.teammemory.server.auth;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.server.errors.ApiException;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Knows callers by their bearer token: first the static tokens file (no network), then GitHub when
 * an OAuth client is configured. With neither configured every request is refused with a {@code
 * 401} that says how to configure authentication: the server is never open by default.
 */
@ApplicationScoped
// A malformed tokens file or GitHub URL fails the boot, not the first request; and before the
// scheduler (StartupEvent priority 0) starts any job, so that a failed boot runs none.
@Startup(-1)
public class Authentication {

  private static final Logger LOG = Logger.getLogger(Authentication.class);
  private static final String CHALLENGE = "Bearer realm=\"team-memory\"";

  static final String NOT_CONFIGURED =
      "authentication is not configured on this server: set TMEM_AUTH_GITHUB_CLIENT_ID for GitHub"
          + " login, or TMEM_AUTH_STATIC_TOKENS_FILE to a file of 'TOKEN USER REPOS ACCESS' lines"
          + " (see docs/admin.md)";

  private final Optional<StaticTokens> staticTokens;
  private final Optional<GitHub> gitHub;

  /** The two halves of GitHub authentication: who the token is, and what it may do. */
  private record GitHub(GitHubTokens tokens, GitHubAccess access) {}

  @Inject
  Authentication(
      AuthenticationConfig config,
      GitHubConfig gitHubConfig,
      Instance<GitHubTokens> gitHubTokens,
      Instance<GitHubAccess> gitHubAccess) {
    this.staticTokens = config.staticTokensFile().map(Authentication::loadStaticTokens);
    staticTokens.ifPresent(
        loaded ->
            LOG.infof(
                "Static tokens enabled: %d tokens from %s",
                loaded.tokenCount(), config.staticTokensFile().orElseThrow()));
    if (gitHubConfig.enabled()) {
      requireNoTrailingSlash(gitHubConfig.apiUrl());
      this.gitHub = Optional.of(new GitHub(gitHubTokens.get(), gitHubAccess.get()));
      LOG.infof(
          "GitHub login enabled: tokens are verified and permissions read at %s",
          gitHubConfig.apiBase());
    } else {
      this.gitHub = Optional.empty();
    }
    if (staticTokens.isEmpty() && gitHub.isEmpty()) {
      LOG.warn("No authentication configured: every request will be refused with 401");
    }
  }

  /**
   * The caller an {@code Authorization} header identifies, with what it may do.
   *
   * @return a failed {@code Uni} with an {@link ApiException}: {@code 401 unauthorized} with {@code
   *     WWW-Authenticate: Bearer} when the header is missing, not a bearer token or names a token
   *     nobody accepts; {@code 503} when GitHub cannot be asked
   */
  Uni<Authenticated> authenticate(String authorizationHeader) {
    String token;
    try {
      token = bearerToken(authorizationHeader);
    } catch (ApiException refused) {
      return Uni.createFrom().failure(refused);
    }
    Optional<Authenticated> byStaticToken = staticTokens.flatMap(file -> file.authenticate(token));
    if (byStaticToken.isPresent()) {
      return Uni.createFrom().item(byStaticToken.get());
    }
    if (gitHub.isPresent()) {
      GitHub provider = gitHub.get();
      return provider
          .tokens()
          .identify(token)
          .map(caller -> new Authenticated(caller, provider.access().of(token)));
    }
    return Uni.createFrom().failure(unauthorized("the bearer token is not valid on this server"));
  }

  private String bearerToken(String authorizationHeader) {
    if (staticTokens.isEmpty() && gitHub.isEmpty()) {
      throw unauthorized(NOT_CONFIGURED);
    }
    if (authorizationHeader == null || authorizationHeader.isBlank()) {
      throw unauthorized("missing bearer token: send 'Authorization: Bearer <token>'");
    }
    String header = authorizationHeader.strip();
    int space = header.indexOf(' ');
    if (space < 0 || !header.substring(0, space).equalsIgnoreCase("Bearer")) {
      throw unauthorized("the Authorization header must carry a bearer token: 'Bearer <token>'");
    }
    String token = header.substring(space + 1).strip();
    if (token.isEmpty()) {
      throw unauthorized("missing bearer token: send 'Authorization: Bearer <token>'");
    }
    return token;
  }

  /**
   * The tokens file, or a {@link ConfigurationException}: Quarkus prints its message alone, where
   * any other failure at boot comes with a stack trace. The message names the file and line, never
   * a token.
   */
  private static StaticTokens loadStaticTokens(Path file) {
    try {
      return StaticTokens.load(file);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      String cause = e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")";
      throw new ConfigurationException(e.getMessage() + cause);
    }
  }

  /**
   * quarkus-oidc appends {@code /user} to the configured API URL as written, so a trailing slash
   * would make every token look invalid; say so at boot instead.
   */
  private static void requireNoTrailingSlash(String apiUrl) {
    if (apiUrl.strip().endsWith("/")) {
      throw new ConfigurationException("TMEM_AUTH_GITHUB_API_URL must not end with '/': " + apiUrl);
    }
  }

  /** A {@code 401} with the bearer challenge and a message saying what was wrong. */
  static ApiException unauthorized(String message) {
    return new ApiException(
        401,
        ErrorEnvelope.of(ErrorCodes.UNAUTHORIZED, message),
        Map.of("WWW-Authenticate", CHALLENGE));
  }
}
