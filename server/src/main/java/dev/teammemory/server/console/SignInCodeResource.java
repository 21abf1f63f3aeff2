package dev.teammemory.server.console;

import dev.teammemory.protocol.ConsoleSignInCode;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code POST /api/console/sign-in-code?repo=owner/name}: what {@code tmem console} asks for. The
 * bearer filter has authenticated the caller; the answer is the path of a single-use, short-lived
 * link that opens a console session acting with the same token, at the repository's page. The token
 * itself never appears in a URL.
 */
@Path("/api/console/sign-in-code")
@Produces(MediaType.APPLICATION_JSON)
public class SignInCodeResource {

  private final RepositoryAuthorization authorization;
  private final ConsoleSessions sessions;

  @Inject
  SignInCodeResource(RepositoryAuthorization authorization, ConsoleSessions sessions) {
    this.authorization = authorization;
    this.sessions = sessions;
  }

  @POST
  public ConsoleSignInCode mint(
      @RestQuery String repo, @RestHeader(HttpHeaders.AUTHORIZATION) String authorizationHeader) {
    String next = "/console/";
    if (repo != null && !repo.isEmpty()) {
      AuthorizedRepository target = authorization.read(repo);
      next = Pages.repositoryHref(target.slug());
    }
    // The filter accepted this header as "Bearer <token>" already.
    String token =
        authorizationHeader.strip().substring(authorizationHeader.strip().indexOf(' ') + 1).strip();
    String code = sessions.mintCode(authorization.caller().user(), token);
    return new ConsoleSignInCode("/console/code/" + code + "?next=" + Pages.urlEncode(next));
  }
}
