package dev.teammemory.server.console;

import dev.teammemory.server.auth.TokenAuthentication;
import dev.teammemory.server.errors.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Optional;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Signs a console request in by its session cookie, as the bearer filter signs an API request in by
 * its header: the session's credential is authenticated again each time (static tokens, or GitHub,
 * whose permissions are checked as for the APIs). Without a session a page redirects to the sign-in
 * page. Every console answer carries a strict Content-Security-Policy.
 */
final class SessionFilter {

  static final String COOKIE = "tmem_console";

  /** No inline script or style, nothing fetched from elsewhere, never in a frame. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private final ConsoleSessions sessions;
  private final CurrentSession currentSession;
  private final TokenAuthentication tokens;

  @Inject
  SessionFilter(
      ConsoleSessions sessions, CurrentSession currentSession, TokenAuthentication tokens) {
    this.sessions = sessions;
    this.currentSession = currentSession;
    this.tokens = tokens;
  }

  @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
  Uni<Response> signIn(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath();
    if (!isConsole(path)) {
      return Uni.createFrom().nullItem();
    }
    Optional<ConsoleSessions.Session> session =
        Optional.ofNullable(request.getCookies().get(COOKIE))
            .map(Cookie::getValue)
            .filter(value -> !value.isBlank())
            .flatMap(sessions::find);
    if (session.isEmpty()) {
      return Uni.createFrom().item(isOpen(path) ? null : signInFirst(request));
    }
    currentSession.set(session.get());
    return tokens
        .authenticate(session.get().credential())
        .map(caller -> (Response) null)
        .onFailure(ApiException.class)
        .recoverWithItem(
            failure -> {
              if (((ApiException) failure).status() == 401) {
                // The token was revoked or expired at GitHub: the session ends with it.
                sessions.close(session.get());
                currentSession.set(null);
                return isOpen(path) ? null : signInFirst(request);
              }
              return Pages.errorResponse(((ApiException) failure).status(), failure.getMessage());
            });
  }

  @ServerResponseFilter
  void headers(ContainerRequestContext request, ContainerResponseContext response) {
    if (!isConsole(request.getUriInfo().getPath())) {
      return;
    }
    MultivaluedMap<String, Object> headers = response.getHeaders();
    headers.putSingle("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    headers.putSingle("X-Frame-Options", "DENY");
    headers.putSingle("X-Content-Type-Options", "nosniff");
    headers.putSingle("Referrer-Policy", "no-referrer");
    headers.putSingle("Cache-Control", "no-store");
  }

  static boolean isConsole(String path) {
    return path.equals("/console") || path.startsWith("/console/");
  }

  /** The pages a browser without a session may open: signing in itself. */
  private static boolean isOpen(String path) {
    return path.equals("/console/sign-in")
        || path.startsWith("/console/sign-in/")
        || path.startsWith("/console/code/");
  }

  /** A page asks for a sign-in first; a form sent without a session is refused. */
  private static Response signInFirst(ContainerRequestContext request) {
    if (!HttpMethod.GET.equals(request.getMethod())
        && !HttpMethod.HEAD.equals(request.getMethod())) {
      return Pages.errorResponse(403, "sign in first: this form needs a console session");
    }
    String next = request.getUriInfo().getRequestUri().getRawPath();
    return Response.seeOther(URI.create("/console/sign-in?next=" + Pages.urlEncode(next))).build();
  }
}
