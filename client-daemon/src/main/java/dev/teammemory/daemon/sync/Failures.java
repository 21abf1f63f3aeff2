package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.AuthConfig;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.util.Optional;

/** The words for failures the user has to act on. */
final class Failures {

  private Failures() {}

  static String unauthorized() {
    return "the server rejected the token (401): run `tmem login` or set TMEM_TOKEN to a valid token";
  }

  /**
   * A {@code 403}, with advice for the kind of credential the server takes: a server that offers
   * GitHub login checks access on GitHub; one with static tokens only, in its tokens file.
   */
  static String forbidden(String repo, String access, TeamMemoryClient client) {
    String refused = "no " + access + " access to " + repo + " (403): ";
    return client.authConfig() instanceof Response.Ok<AuthConfig>
        ? refused + "ask a maintainer for access on GitHub, then run `tmem login` again"
        : refused
            + "this server's tokens are set by its admin; ask them to give your token "
            + access
            + " access to "
            + repo;
  }

  static String notFoundOnPut(String repo) {
    return "the server says "
        + repo
        + " does not exist or you cannot see it (404 on push): check the repository name"
        + " (`tmem add --repo owner/name`) and your access, then edit a file or run `tmem sync`";
  }

  static String notTeamMemory(String serverUrl) {
    return serverUrl
        + " does not answer as a Team Memory server (its /api/auth/config is not Team Memory's):"
        + " check the server URL (TMEM_SERVER_URL or `tmem login --server URL`)";
  }

  static String describe(int status, Optional<ErrorEnvelope> error) {
    StringBuilder words = new StringBuilder().append(status);
    error.flatMap(ErrorEnvelope::errorCode).ifPresent(code -> words.append(' ').append(code));
    error.flatMap(ErrorEnvelope::message).ifPresent(message -> words.append(": ").append(message));
    return words.toString();
  }
}
