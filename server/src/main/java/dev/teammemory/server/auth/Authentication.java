package dev.teammemory.server.auth;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.server.errors.ApiException;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The configured way of knowing callers: the identity step and the {@link RepositoryAccess} port
 * that goes with it. Only the static tokens file exists today; a GitHub implementation of both will
 * be chosen here when GitHub is configured. With nothing configured every request is refused with a
 * {@code 401} that says how to configure authentication: the server is never open by default.
 */
@ApplicationScoped
@Startup // a malformed tokens file fails the boot, not the first request
public class Authentication {

  private static final Logger LOG = Logger.getLogger(Authentication.class);
  private static final String CHALLENGE = "Bearer realm=\"team-memory\"";

  static final String NOT_CONFIGURED =
      "authentication is not configured on this server: set TMEM_AUTH_STATIC_TOKENS_FILE to a"
          + " file of 'TOKEN USER REPOS ACCESS' lines (see docs/server.md)";

  private final Optional<CallerIdentification> identification;
  private final RepositoryAccess access;

  @Inject
  Authentication(AuthenticationConfig config) {
    Optional<StaticTokens> tokens = config.staticTokensFile().map(StaticTokens::load);
    tokens.ifPresentOrElse(
        loaded ->
            LOG.infof(
                "Static tokens enabled: %d tokens from %s",
                loaded.tokenCount(), config.staticTokensFile().orElseThrow()),
        () -> LOG.warn("No authentication configured: every request will be refused with 401"));
    this.identification = tokens.map(CallerIdentification.class::cast);
    this.access =
        tokens.<RepositoryAccess>map(loaded -> loaded).orElse((caller, repo) -> Permission.NONE);
  }

  /**
   * The caller an {@code Authorization} header identifies.
   *
   * @throws ApiException {@code 401 unauthorized} with {@code WWW-Authenticate: Bearer} when the
   *     header is missing, not a bearer token or names an unknown token
   */
  public Caller authenticate(String authorizationHeader) {
    if (identification.isEmpty()) {
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
    return identification
        .get()
        .identify(token)
        .orElseThrow(() -> unauthorized("the bearer token is not valid on this server"));
  }

  /** What the caller may do with the repository. */
  public Permission permission(Caller caller, RepositorySlug repository) {
    return access.permission(caller, repository);
  }

  private static ApiException unauthorized(String message) {
    return new ApiException(
        401,
        ErrorEnvelope.of(ErrorCodes.UNAUTHORIZED, message),
        Map.of("WWW-Authenticate", CHALLENGE));
  }
}
