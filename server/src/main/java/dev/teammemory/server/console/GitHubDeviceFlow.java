package dev.teammemory.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.server.auth.GitHubConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * GitHub's device flow with the OAuth App client id the server already has: a code the person
 * enters at GitHub, and the token GitHub hands over once they have. Each call is one bounded HTTP
 * request; the waiting is the browser's (the page refreshes itself).
 */
@ApplicationScoped
class GitHubDeviceFlow {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final GitHubConfig config;
  private final HttpClient client;

  @Inject
  GitHubDeviceFlow(GitHubConfig config) {
    this.config = config;
    this.client = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
  }

  boolean available() {
    return config.enabled();
  }

  /** What GitHub answered a request for a device code. */
  record Started(
      String deviceCode, String userCode, String verificationUri, int interval, long expiresIn) {}

  /** What a poll came to. */
  sealed interface Poll {
    record Token(String token) implements Poll {}

    record Pending() implements Poll {}

    record SlowDown(int interval) implements Poll {}

    record Ended(String reason) implements Poll {}
  }

  /** Asks GitHub for a device code; empty, with the reason logged by the caller, when it cannot. */
  Optional<Started> start() throws IOException, InterruptedException {
    JsonNode answer =
        post(
            "/login/device/code",
            Map.of(
                "client_id", config.clientId().orElseThrow(),
                "scope", String.join(" ", config.scopes())));
    if (!answer.hasNonNull("device_code") || !answer.hasNonNull("user_code")) {
      return Optional.empty();
    }
    return Optional.of(
        new Started(
            answer.get("device_code").asText(),
            answer.get("user_code").asText(),
            answer.path("verification_uri").asText(config.webBase() + "/login/device"),
            Math.max(1, answer.path("interval").asInt(5)),
            Math.max(60, answer.path("expires_in").asLong(900))));
  }

  Poll poll(String deviceCode) throws IOException, InterruptedException {
    JsonNode answer =
        post(
            "/login/oauth/access_token",
            Map.of(
                "client_id",
                config.clientId().orElseThrow(),
                "device_code",
                deviceCode,
                "grant_type",
                "urn:ietf:params:oauth:grant-type:device_code"));
    if (answer.hasNonNull("access_token")) {
      return new Poll.Token(answer.get("access_token").asText());
    }
    return switch (answer.path("error").asText("")) {
      case "authorization_pending" -> new Poll.Pending();
      case "slow_down" -> new Poll.SlowDown(answer.path("interval").asInt(10));
      case "expired_token" -> new Poll.Ended("the code expired before it was entered at GitHub");
      case "access_denied" -> new Poll.Ended("the sign-in was declined at GitHub");
      default -> new Poll.Ended("GitHub did not accept the sign-in");
    };
  }

  private JsonNode post(String path, Map<String, String> form)
      throws IOException, InterruptedException {
    String body =
        form.entrySet().stream()
            .map(
                entry ->
                    URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(entry.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(config.webBase() + path))
            .timeout(config.timeout())
            .header("Accept", "application/json")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    if (response.body().length > 64 * 1024) {
      throw new IOException("GitHub's answer is larger than any device-flow answer");
    }
    return JSON.readTree(response.body());
  }
}
