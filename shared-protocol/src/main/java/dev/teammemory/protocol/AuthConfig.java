package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Optional;

/**
 * The body of {@code GET /api/auth/config}: where a daemon runs GitHub's device flow, so that
 * developers configure nothing but the server URL; and whether the server serves the Memory Stores
 * API ({@code memoryStores}), so that a daemon can sync per memory.
 */
public record AuthConfig(
    @JsonProperty(required = true) GitHub github,
    @JsonInclude(JsonInclude.Include.NON_NULL) String memoryStores) {

  public AuthConfig {
    requireNonNull(github, "github is null");
  }

  /** A server without the Memory Stores API. */
  public AuthConfig(GitHub github) {
    this(github, null);
  }

  /** Where the server serves the Memory Stores API ({@code /v1/memory_stores}), if it does. */
  public Optional<String> memoryStoresPath() {
    return Optional.ofNullable(memoryStores);
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
