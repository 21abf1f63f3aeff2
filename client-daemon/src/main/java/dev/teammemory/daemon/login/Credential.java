package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One stored login: the GitHub token for one team-memory server. {@link #toString()} leaves the
 * tokens out, so a credential in a log line or an exception message leaks nothing.
 *
 * @param server the server's URL without a trailing slash; one login per server
 * @param expiresAt when the access token expires (GitHub App user tokens); empty: never (OAuth App
 *     tokens)
 * @param clientId the OAuth client that issued the token; a refresh must name the same client
 * @param tokenUrl where to refresh the token
 */
record Credential(
    String server,
    String githubLogin,
    String accessToken,
    Optional<String> refreshToken,
    Optional<Instant> expiresAt,
    Optional<Instant> refreshExpiresAt,
    Instant savedAt,
    String clientId,
    String tokenUrl) {

  Credential {
    requireNonNull(server, "server is null");
    if (!server.equals(ServerUrl.normalise(server))) {
      throw new IllegalArgumentException("server is not normalised: " + server);
    }
    requireNonNull(githubLogin, "githubLogin is null");
    requireNonNull(accessToken, "accessToken is null");
    if (accessToken.isBlank()) {
      throw new IllegalArgumentException("accessToken of " + server + " is blank");
    }
    requireNonNull(refreshToken, "refreshToken is null");
    requireNonNull(expiresAt, "expiresAt is null");
    requireNonNull(refreshExpiresAt, "refreshExpiresAt is null");
    requireNonNull(savedAt, "savedAt is null");
    requireNonNull(clientId, "clientId is null");
    requireNonNull(tokenUrl, "tokenUrl is null");
  }

  /** The login a device flow (or a refresh) just produced. */
  static Credential issued(
      String server,
      String githubLogin,
      TokenGrant grant,
      Instant now,
      String clientId,
      String tokenUrl) {
    return new Credential(
        server,
        githubLogin,
        grant.accessToken(),
        grant.refreshToken(),
        grant.expiresIn().map(now::plus),
        grant.refreshTokenExpiresIn().map(now::plus),
        now,
        clientId,
        tokenUrl);
  }

  /**
   * This login with a refreshed token. GitHub rotates the refresh token; should an answer lack one,
   * the old one is kept.
   */
  Credential refreshed(TokenGrant grant, Instant now) {
    return new Credential(
        server,
        githubLogin,
        grant.accessToken(),
        grant.refreshToken().or(() -> refreshToken),
        grant.expiresIn().map(now::plus),
        grant.refreshToken().isPresent()
            ? grant.refreshTokenExpiresIn().map(now::plus)
            : refreshExpiresAt,
        now,
        clientId,
        tokenUrl);
  }

  /** True when the access token has expired or will within {@code margin}. */
  boolean expiresWithin(Duration margin, Instant now) {
    return expiresAt.map(expiry -> !now.plus(margin).isBefore(expiry)).orElse(false);
  }

  boolean expired(Instant now) {
    return expiresAt.map(expiry -> !now.isBefore(expiry)).orElse(false);
  }

  /** True when there is a refresh token that has not expired. */
  boolean refreshable(Instant now) {
    return refreshToken.isPresent() && refreshExpiresAt.map(now::isBefore).orElse(true);
  }

  @Override
  public String toString() {
    return "Credential[server="
        + server
        + ", githubLogin="
        + githubLogin
        + ", expiresAt="
        + expiresAt
        + ", refreshable="
        + refreshToken.isPresent()
        + ", savedAt="
        + savedAt
        + "]";
  }
}
