package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A token GitHub issued. An OAuth App's token does not expire; a GitHub App's user token expires (8
 * hours) and comes with a refresh token (6 months). {@link #toString()} leaves the tokens out.
 *
 * @param scope the scopes GitHub granted, comma-separated as GitHub sends them (empty for a GitHub
 *     App, whose access comes from the app's permissions)
 */
record TokenGrant(
    String accessToken,
    Optional<String> refreshToken,
    Optional<Duration> expiresIn,
    Optional<Duration> refreshTokenExpiresIn,
    String scope) {

  TokenGrant {
    requireNonNull(accessToken, "accessToken is null");
    if (accessToken.isBlank()) {
      throw new IllegalArgumentException("accessToken is blank");
    }
    requireNonNull(refreshToken, "refreshToken is null");
    requireNonNull(expiresIn, "expiresIn is null");
    requireNonNull(refreshTokenExpiresIn, "refreshTokenExpiresIn is null");
    requireNonNull(scope, "scope is null");
  }

  /** The granted scopes, one per element. */
  List<String> scopes() {
    return Arrays.stream(scope.split("[,\\s]+")).filter(part -> !part.isEmpty()).toList();
  }

  @Override
  public String toString() {
    return "TokenGrant[expiresIn="
        + expiresIn
        + ", refreshable="
        + refreshToken.isPresent()
        + ", scope="
        + scope
        + "]";
  }
}
