package dev.teammemory.server.auth;

import dev.teammemory.protocol.AuthConfig;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.server.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/auth/config}: tells a daemon where to run GitHub's device flow, so developers
 * configure nothing but the server URL. Public: it is asked before the daemon has a token.
 */
@Path(AuthConfigResource.PATH)
public class AuthConfigResource {

  static final String PATH = "/api/auth/config";

  /** Where this server serves the Memory Stores API, announced to daemons. */
  static final String MEMORY_STORES_PATH = "/v1/memory_stores";

  private final GitHubConfig gitHub;

  @Inject
  AuthConfigResource(GitHubConfig gitHub) {
    this.gitHub = gitHub;
  }

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public AuthConfig config() {
    if (!gitHub.enabled()) {
      throw ApiException.of(
          404,
          ErrorCodes.NOT_FOUND,
          "this server does not offer GitHub login; ask your admin for a token");
    }
    String clientId = gitHub.clientId().orElseThrow();
    String web = gitHub.webBase();
    return new AuthConfig(
        new AuthConfig.GitHub(
            clientId,
            web + "/login/device/code",
            web + "/login/oauth/access_token",
            gitHub.apiBase(),
            gitHub.scopes()),
        MEMORY_STORES_PATH);
  }
}
