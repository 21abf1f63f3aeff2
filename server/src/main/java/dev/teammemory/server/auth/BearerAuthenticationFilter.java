package dev.teammemory.server.auth;

import dev.teammemory.server.errors.ApiException;
import dev.teammemory.server.errors.ErrorResponses;
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

  /** The header older Anthropic SDKs send their key in; accepted under {@code /v1/} only. */
  static final String API_KEY = "x-api-key";

  private final Authentication authentication;
  private final CurrentCaller currentCaller;

  @Inject
  BearerAuthenticationFilter(Authentication authentication, CurrentCaller currentCaller) {
    this.authentication = authentication;
    this.currentCaller = currentCaller;
  }

  @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
  Uni<Void> authenticate(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath();
    if (path.startsWith(AuthConfigResource.PATH) || isConsole(path)) {
      // The console's pages authenticate by their session cookie (TokenAuthentication); this
      // filter reads the Authorization header only, so no cookie ever reaches the APIs.
      return Uni.createFrom().voidItem();
    }
    String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
    if (ErrorResponses.isMemoryStoresApi(request.getUriInfo())) {
      try {
        authorization = memoryStoresAuthorization(authorization, request.getHeaderString(API_KEY));
      } catch (ApiException refused) {
        return Uni.createFrom().failure(refused);
      }
    }
    return authentication
        .authenticate(authorization)
        .invoke(currentCaller::set)
        .invoke(authenticated -> RequestLog.user(authenticated.caller().user()))
        .replaceWithVoid();
  }

  /** Whether {@code path} is one of the console's pages, which sign in by session instead. */
  static boolean isConsole(String path) {
    return path.equals("/console") || path.startsWith("/console/");
  }

  /**
   * The Memory Stores API's SDKs send the key as {@code Authorization: Bearer} (newer) or {@code
   * x-api-key} (older); both carry our tokens. Two headers that name different keys are refused
   * rather than one of them picked, so that a client never acts as someone it did not mean to be.
   */
  private static String memoryStoresAuthorization(String authorization, String apiKey) {
    if (apiKey == null || apiKey.isBlank()) {
      return authorization;
    }
    String key = apiKey.strip();
    if (authorization == null || authorization.isBlank()) {
      return "Bearer " + key;
    }
    String header = authorization.strip();
    int space = header.indexOf(' ');
    boolean same =
        space > 0
            && header.substring(0, space).equalsIgnoreCase("Bearer")
            && header.substring(space + 1).strip().equals(key);
    if (!same) {
      throw Authentication.unauthorized(
          "the Authorization and x-api-key headers carry different keys; send one of them");
    }
    return authorization;
  }
}
