package dev.teammemory.server.console;

import dev.teammemory.server.auth.Caller;
import dev.teammemory.server.auth.TokenAuthentication;
import dev.teammemory.server.errors.ApiException;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestCookie;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * Signing in and out of the console: a pasted token (a static token, or the one {@code tmem login}
 * holds), GitHub's device flow, or a single-use code {@code tmem console} minted. The session's
 * cookie holds a random id only. The sign-in form, before any session, carries a token that a
 * cookie of its own must match (double submit), so no other site can sign a browser in.
 */
@Path("/console")
@Produces("text/html;charset=UTF-8")
@Blocking
public class SignInPages {

  private static final Logger LOG = Logger.getLogger(SignInPages.class);
  private static final String FORM_COOKIE = "tmem_console_form";
  private static final String DEVICE_COOKIE = "tmem_console_device";
  private static final Duration AUTHENTICATION_DEADLINE = Duration.ofSeconds(30);

  private final ConsoleSessions sessions;
  private final CurrentSession currentSession;
  private final TokenAuthentication tokens;
  private final GitHubDeviceFlow gitHub;
  private final ConsoleConfig config;

  @Inject
  SignInPages(
      ConsoleSessions sessions,
      CurrentSession currentSession,
      TokenAuthentication tokens,
      GitHubDeviceFlow gitHub,
      ConsoleConfig config) {
    this.sessions = sessions;
    this.currentSession = currentSession;
    this.tokens = tokens;
    this.gitHub = gitHub;
    this.config = config;
  }

  @GET
  @Path("/sign-in")
  public Response signInPage(@RestQuery String next, @Context UriInfo uri) {
    return signInForm(uri, safeNext(next), null, 200);
  }

  @POST
  @Path("/sign-in")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response signIn(
      @RestForm String csrf,
      @RestForm String token,
      @RestForm String next,
      @RestCookie(FORM_COOKIE) String formCookie,
      @Context UriInfo uri) {
    requireFormToken(formCookie, csrf);
    String destination = safeNext(next);
    if (token == null || token.isBlank()) {
      return signInForm(uri, destination, "Paste a token to sign in.", 400);
    }
    Caller caller;
    try {
      caller = tokens.authenticate(token.strip()).await().atMost(AUTHENTICATION_DEADLINE);
    } catch (ApiException refused) {
      return signInForm(
          uri,
          destination,
          refused.status() == 401
              ? "That token is not valid on this server."
              : "The token could not be checked just now: " + refused.getMessage(),
          refused.status());
    }
    String id = sessions.open(caller.user(), token.strip());
    LOG.infof("Console sign-in by %s with a token", caller.user());
    return Response.seeOther(URI.create(destination)).cookie(sessionCookie(uri, id)).build();
  }

  @POST
  @Path("/sign-in/github")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response startGitHub(
      @RestForm String csrf, @RestCookie(FORM_COOKIE) String formCookie, @Context UriInfo uri) {
    requireFormToken(formCookie, csrf);
    if (!gitHub.available()) {
      throw ApiException.of(404, "not_found", "GitHub sign-in is not configured on this server");
    }
    Optional<GitHubDeviceFlow.Started> started;
    try {
      started = gitHub.start();
    } catch (IOException e) {
      throw unavailable();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable();
    }
    GitHubDeviceFlow.Started flow = started.orElseThrow(SignInPages::unavailable);
    String id =
        sessions.startDeviceSignIn(
            flow.deviceCode(),
            flow.userCode(),
            flow.verificationUri(),
            flow.interval(),
            flow.expiresIn());
    return Response.seeOther(URI.create("/console/sign-in/github"))
        .cookie(cookie(uri, DEVICE_COOKIE, id, Duration.ofSeconds(flow.expiresIn())))
        .build();
  }

  /**
   * The code and the link, until GitHub hands over a token: the page refreshes itself (a {@code
   * Refresh} header, no script), and a "Check now" link does the same by hand.
   */
  @GET
  @Path("/sign-in/github")
  public Response waitForGitHub(@RestCookie(DEVICE_COOKIE) String id, @Context UriInfo uri) {
    Optional<ConsoleSessions.DeviceSignIn> waiting =
        id == null ? Optional.empty() : sessions.deviceSignIn(id);
    if (waiting.isEmpty()) {
      return signInForm(uri, "/console/", "The GitHub sign-in expired; start again.", 410);
    }
    ConsoleSessions.DeviceSignIn signIn = waiting.get();
    int refreshSeconds = signIn.pollSeconds();
    if (sessions.claimPoll(id)) {
      GitHubDeviceFlow.Poll poll;
      try {
        poll = gitHub.poll(signIn.deviceCode());
      } catch (IOException e) {
        poll = new GitHubDeviceFlow.Poll.Pending(); // asked again at the next refresh
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw unavailable();
      }
      switch (poll) {
        case GitHubDeviceFlow.Poll.Token granted -> {
          Caller caller;
          try {
            caller = tokens.authenticate(granted.token()).await().atMost(AUTHENTICATION_DEADLINE);
          } catch (ApiException refused) {
            sessions.endDeviceSignIn(id);
            return signInForm(uri, "/console/", "GitHub's token was not accepted.", 401);
          }
          sessions.endDeviceSignIn(id);
          String session = sessions.open(caller.user(), granted.token());
          LOG.infof("Console sign-in by %s through GitHub", caller.user());
          return Response.seeOther(URI.create("/console/"))
              .cookie(sessionCookie(uri, session), cookie(uri, DEVICE_COOKIE, "", Duration.ZERO))
              .build();
        }
        case GitHubDeviceFlow.Poll.SlowDown slow -> {
          sessions.slowDown(id, slow.interval());
          refreshSeconds = slow.interval();
        }
        case GitHubDeviceFlow.Poll.Ended ended -> {
          sessions.endDeviceSignIn(id);
          return signInForm(uri, "/console/", "Not signed in: " + ended.reason() + ".", 401);
        }
        case GitHubDeviceFlow.Poll.Pending pending -> {}
      }
    }
    return Response.ok(
            Pages.Templates.device(
                    new Views.Chrome("Sign in with GitHub", null, null),
                    new Views.DeviceView(
                        signIn.userCode(), signIn.verificationUri(), refreshSeconds))
                .render())
        .header("Refresh", String.valueOf(refreshSeconds))
        .build();
  }

  /** A code {@code tmem console} minted: used once, then a session and the page it asked for. */
  @GET
  @Path("/code/{code}")
  public Response code(@RestPath String code, @RestQuery String next, @Context UriInfo uri) {
    Optional<String> session = sessions.exchange(code);
    if (session.isEmpty()) {
      return signInForm(
          uri,
          safeNext(next),
          "That sign-in link was used already or has expired; run tmem console again, or sign in"
              + " here.",
          410);
    }
    return Response.seeOther(URI.create(safeNext(next)))
        .cookie(sessionCookie(uri, session.get()))
        .build();
  }

  @POST
  @Path("/sign-out")
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  public Response signOut(@RestForm String csrf, @Context UriInfo uri) {
    ConsoleSessions.Session session = currentSession.require();
    if (!RandomIds.same(session.csrfToken(), csrf)) {
      throw ApiException.of(403, "forbidden", "the form was not sent from this console");
    }
    sessions.close(session);
    return Response.seeOther(URI.create("/console/sign-in"))
        .cookie(cookie(uri, SessionFilter.COOKIE, "", Duration.ZERO))
        .build();
  }

  private Response signInForm(UriInfo uri, String next, String message, int status) {
    String formToken = RandomIds.next();
    return Response.status(status)
        .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
        .entity(
            Pages.Templates.signIn(
                    new Views.Chrome("Sign in", null, null),
                    new Views.SignInView(formToken, next, message, gitHub.available()))
                .render())
        .cookie(cookie(uri, FORM_COOKIE, formToken, Duration.ofHours(1)))
        .build();
  }

  private static void requireFormToken(String cookie, String form) {
    if (cookie == null || cookie.isBlank() || !RandomIds.same(cookie, form)) {
      throw ApiException.of(
          403,
          "forbidden",
          "the sign-in form was not sent from this console (its CSRF token is missing or wrong);"
              + " reload the page and try again");
    }
  }

  /** Only a console page is a place to go after signing in, never another site. */
  static String safeNext(String next) {
    if (next == null
        || !next.startsWith("/console/")
        || next.startsWith("//")
        || next.contains("\\")
        || next.chars().anyMatch(c -> c < 0x20)) {
      return "/console/";
    }
    return next;
  }

  private NewCookie sessionCookie(UriInfo uri, String id) {
    return cookie(uri, SessionFilter.COOKIE, id, config.sessionTtl());
  }

  private static NewCookie cookie(UriInfo uri, String name, String value, Duration maxAge) {
    return new NewCookie.Builder(name)
        .value(value)
        .path("/console")
        .httpOnly(true)
        .secure("https".equalsIgnoreCase(uri.getRequestUri().getScheme()))
        .sameSite(NewCookie.SameSite.LAX)
        .maxAge((int) Math.min(Integer.MAX_VALUE, maxAge.toSeconds()))
        .build();
  }

  /** A refusal of a sign-in page as a page, in words. */
  @org.jboss.resteasy.reactive.server.ServerExceptionMapper
  Response refused(ApiException exception) {
    return Pages.errorResponse(exception.status(), exception.getMessage());
  }

  private static ApiException unavailable() {
    return ApiException.of(
        503, "github_unavailable", "GitHub could not be asked just now; try again in a minute");
  }
}
