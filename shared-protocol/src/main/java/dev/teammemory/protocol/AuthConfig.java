package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The body of {@code GET /api/auth/config}: where a daemon runs GitHub's device flow, so that
 * developers configure nothing but the server URL.
 */
public record AuthConfig(@JsonProperty(required = true) GitHub github) {

  public AuthConfig {
    requireNonNull(github, "github is null");
  }

  /** The OAuth client and endpoints of the GitHub (or GitHub Enterprise Server) to log in with. */
  public record GitHub(
      @JsonProperty(required = true) String clientId,
      @JsonProperty(required = true) String deviceCodeUrl,
      @JsonProperty(required = true) String tokenUrl,
      @JsonProperty(required = true) String apiUrl,
      @JsonProperty(required = true) List<String> scopes) {

    public GitHub {
      requireNonNull(clientId, "clientId is null");
      requireNonNull(deviceCodeUrl, "deviceCodeUrl is null");
      requireNonNull(tokenUrl, "tokenUrl is null");
      requireNonNull(apiUrl, "apiUrl is null");
      scopes = List.copyOf(requireNonNull(scopes, "scopes is null"));
    }
  }
}
