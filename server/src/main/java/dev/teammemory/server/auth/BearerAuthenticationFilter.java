package dev.teammemory.server.auth;

import dev.teammemory.server.logging.RequestLog;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Authenticates every API request before anything else looks at it, so that a request without a
 * valid token learns nothing but {@code 401}. Health, metrics and OpenAPI under {@code /q} are not
 * API resources and stay open, and so does auth discovery, which a daemon asks before it has a
 * token. Asynchronous, because asking GitHub must not hold a thread.
 */
final class BearerAuthenticationFilter {

  private final Authentication authentication;
  private final CurrentCaller currentCaller;

  @Inject
  BearerAuthenticationFilter(Authentication authentication, CurrentCaller currentCaller) {
    this.authentication = authentication;
    this.currentCaller = currentCaller;
  }

  @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
  Uni<Void> authenticate(ContainerRequestContext request) {
    if (request.getUriInfo().getPath().startsWith(AuthConfigResource.PATH)) {
      return Uni.createFrom().voidItem();
    }
    return authentication
        .authenticate(request.getHeaderString(HttpHeaders.AUTHORIZATION))
        .invoke(currentCaller::set)
        .invoke(authenticated -> RequestLog.user(authenticated.caller().user()))
        .replaceWithVoid();
  }
}
