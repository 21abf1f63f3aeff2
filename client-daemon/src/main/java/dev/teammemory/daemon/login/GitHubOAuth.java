package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * GitHub's OAuth device flow, token refresh and user endpoint, as github.com and GitHub Enterprise
 * Server speak them. Every answer is a value, network failures included. Nothing here prints or
 * logs a token; reasons name the endpoint, the status and GitHub's error code.
 */
final class GitHubOAuth implements AutoCloseable {

  static final String DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
  private static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final OkHttpClient http;
  private final String userAgent;

  GitHubOAuth(String userAgent) {
    this(
        new OkHttpClient.Builder()
            .connectTimeout(Duration.ofSeconds(10))
            .readTimeout(Duration.ofSeconds(30))
            .callTimeout(Duration.ofMinutes(1))
            .build(),
        userAgent);
  }

  GitHubOAuth(OkHttpClient http, String userAgent) {
    this.http = requireNonNull(http, "http is null");
    this.userAgent = requireNonNull(userAgent, "userAgent is null");
  }

  /** The answer to a device-code request. */
  sealed interface CodeAnswer {
    record Issued(DeviceCode code) implements CodeAnswer {}

    /** GitHub refused ({@code error} is its code, e.g. {@code device_flow_disabled}) or failed. */
    record Failed(String error, String reason) implements CodeAnswer {}
  }

  /** The answer of the token endpoint, to a device-code poll or a refresh. */
  sealed interface TokenAnswer {
    record Granted(TokenGrant grant) implements TokenAnswer {}

    /** {@code authorization_pending}: the user has not entered the code yet. */
    record Pending() implements TokenAnswer {}

    /** {@code slow_down}: poll less often; GitHub sends the new interval. */
    record SlowDown(Optional<Duration> interval) implements TokenAnswer {}

    /** Any other OAuth error ({@code expired_token}, {@code access_denied}, …): stop. */
    record Refused(String error, String description) implements TokenAnswer {}

    /** No OAuth answer: a network failure or a 5xx. Worth another try. */
    record Unreachable(String reason) implements TokenAnswer {}
  }

  /** The answer of {@code GET /user}. */
  sealed interface UserAnswer {
    record Found(String login) implements UserAnswer {}

    /** {@code 401 Bad credentials}: the token was revoked, expired or never valid. */
    record BadCredentials() implements UserAnswer {}

    record Failed(String reason) implements UserAnswer {}
  }

  /** {@code POST deviceCodeUrl}: starts a device authorisation for the scopes. */
  CodeAnswer requestCode(String deviceCodeUrl, String clientId, List<String> scopes) {
    FormBody.Builder form = new FormBody.Builder().add("client_id", clientId);
    if (!scopes.isEmpty()) {
      form.add("scope", String.join(" ", scopes));
    }
    Request request = oauthRequest(deviceCodeUrl).post(form.build()).build();
    String call = "POST " + deviceCodeUrl;
    Exchange exchange;
    try {
      exchange = exchange(request);
    } catch (IOException e) {
      return new CodeAnswer.Failed("unreachable", call + " failed: " + describe(e));
    }
    JsonNode body = exchange.json();
    if (body != null && body.hasNonNull("error")) {
      String error = body.path("error").asText();
      return new CodeAnswer.Failed(error, call + " answered " + error + description(body));
    }
    if (exchange.status() / 100 != 2 || body == null) {
      return new CodeAnswer.Failed(
          "http_" + exchange.status(),
          call + " answered " + exchange.status() + " without a device code");
    }
    String deviceCode = body.path("device_code").asText("");
    String userCode = body.path("user_code").asText("");
    String verificationUri = body.path("verification_uri").asText("");
    long expiresIn = body.path("expires_in").asLong(0);
    if (deviceCode.isEmpty() || userCode.isEmpty() || verificationUri.isEmpty() || expiresIn <= 0) {
      return new CodeAnswer.Failed(
          "invalid_answer",
          call + " answered without device_code, user_code, verification_uri or expires_in");
    }
    long interval = body.path("interval").asLong(0);
    return new CodeAnswer.Issued(
        new DeviceCode(
            deviceCode,
            userCode,
            verificationUri,
            Duration.ofSeconds(expiresIn),
            interval > 0 ? Duration.ofSeconds(interval) : DEFAULT_INTERVAL));
  }

  /** {@code POST tokenUrl} with the device code: has the user entered the code yet? */
  TokenAnswer pollToken(String tokenUrl, String clientId, String deviceCode) {
    return token(
        tokenUrl,
        new FormBody.Builder()
            .add("client_id", clientId)
            .add("device_code", deviceCode)
            .add("grant_type", DEVICE_CODE_GRANT)
            .build());
  }

  /** {@code POST tokenUrl} with a refresh token: a new access token (and refresh token). */
  TokenAnswer refresh(String tokenUrl, String clientId, String refreshToken) {
    return token(
        tokenUrl,
        new FormBody.Builder()
            .add("client_id", clientId)
            .add("grant_type", "refresh_token")
            .add("refresh_token", refreshToken)
            .build());
  }

  /** {@code GET {apiUrl}/user}: whose token this is. */
  UserAnswer user(String apiUrl, String accessToken) {
    HttpUrl base = HttpUrl.parse(apiUrl);
    if (base == null) {
      return new UserAnswer.Failed("the GitHub API URL is not an http(s) URL: " + apiUrl);
    }
    HttpUrl url = base.newBuilder().addPathSegment("user").build();
    Request request =
        new Request.Builder()
            .url(url)
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("User-Agent", userAgent)
            .header("Authorization", "Bearer " + accessToken)
            .get()
            .build();
    String call = "GET " + url;
    Exchange exchange;
    try {
      exchange = exchange(request);
    } catch (IOException e) {
      return new UserAnswer.Failed(call + " failed: " + describe(e));
    }
    if (exchange.status() == 401) {
      return new UserAnswer.BadCredentials();
    }
    JsonNode body = exchange.json();
    if (exchange.status() / 100 == 2 && body != null && !body.path("login").asText("").isEmpty()) {
      return new UserAnswer.Found(body.path("login").asText());
    }
    String message = body == null ? "" : body.path("message").asText("");
    return new UserAnswer.Failed(
        call + " answered " + exchange.status() + (message.isEmpty() ? "" : " (" + message + ")"));
  }

  @Override
  public void close() {
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }

  private TokenAnswer token(String tokenUrl, FormBody form) {
    String call = "POST " + tokenUrl;
    Exchange exchange;
    try {
      exchange = exchange(oauthRequest(tokenUrl).post(form).build());
    } catch (IOException e) {
      return new TokenAnswer.Unreachable(call + " failed: " + describe(e));
    }
    JsonNode body = exchange.json();
    // GitHub answers OAuth errors with 200 and an "error" field, so the field decides, not the
    // status.
    if (body != null && body.hasNonNull("error")) {
      String error = body.path("error").asText();
      return switch (error) {
        case "authorization_pending" -> new TokenAnswer.Pending();
        case "slow_down" -> {
          long interval = body.path("interval").asLong(0);
          yield new TokenAnswer.SlowDown(
              interval > 0 ? Optional.of(Duration.ofSeconds(interval)) : Optional.empty());
        }
        default -> new TokenAnswer.Refused(error, body.path("error_description").asText(""));
      };
    }
    if (exchange.status() / 100 == 2
        && body != null
        && !body.path("access_token").asText("").isBlank()) {
      return new TokenAnswer.Granted(grant(body));
    }
    if (exchange.status() >= 500) {
      return new TokenAnswer.Unreachable(call + " answered " + exchange.status());
    }
    return new TokenAnswer.Refused(
        "http_" + exchange.status(),
        call + " answered " + exchange.status() + " without a token or an OAuth error");
  }

  private static TokenGrant grant(JsonNode body) {
    return new TokenGrant(
        body.path("access_token").asText(),
        text(body, "refresh_token"),
        seconds(body, "expires_in"),
        seconds(body, "refresh_token_expires_in"),
        body.path("scope").asText(""));
  }

  private static Optional<String> text(JsonNode body, String field) {
    String value = body.path(field).asText("");
    return value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  private static Optional<Duration> seconds(JsonNode body, String field) {
    long value = body.path(field).asLong(0);
    return value > 0 ? Optional.of(Duration.ofSeconds(value)) : Optional.empty();
  }

  private static String description(JsonNode body) {
    String description = body.path("error_description").asText("");
    return description.isEmpty() ? "" : " (" + description + ")";
  }

  private Request.Builder oauthRequest(String url) {
    // Without Accept: application/json GitHub answers form-encoded text.
    return new Request.Builder()
        .url(url)
        .header("Accept", "application/json")
        .header("User-Agent", userAgent);
  }

  private Exchange exchange(Request request) throws IOException {
    try (okhttp3.Response response = http.newCall(request).execute()) {
      return new Exchange(response.code(), response.body().bytes());
    }
  }

  private record Exchange(int status, byte[] body) {
    /** The body as JSON, or null when it is not JSON (a proxy's HTML page, form-encoded text). */
    JsonNode json() {
      try {
        JsonNode node = JSON.readTree(body);
        return node != null && node.isObject() ? node : null;
      } catch (IOException e) {
        return null;
      }
    }
  }

  private static String describe(IOException failure) {
    return TeamMemoryClient.describe(failure);
  }
}
