package dev.teammemory.server.auth;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Authenticates a token the console holds for a session, exactly as a bearer token of the APIs
 * (static tokens, then GitHub, whose permissions are checked again), and makes its caller the
 * request's, so that every page goes through {@link RepositoryAuthorization} as the APIs do.
 */
@ApplicationScoped
public class TokenAuthentication {

  private final Authentication authentication;
  private final CurrentCaller currentCaller;

  @Inject
  TokenAuthentication(Authentication authentication, CurrentCaller currentCaller) {
    this.authentication = authentication;
    this.currentCaller = currentCaller;
  }

  /**
   * The caller {@code token} is, now the current caller of this request.
   *
   * @return a failed {@code Uni} with an {@link dev.teammemory.server.errors.ApiException} when no
   *     one accepts the token ({@code 401}) or GitHub cannot be asked ({@code 503})
   */
  public Uni<Caller> authenticate(String token) {
    return authentication
        .authenticate("Bearer " + token)
        .invoke(currentCaller::set)
        .map(Authenticated::caller);
  }
}
