package dev.teammemory.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

/**
 * Requests to a packaged server as a client sends them, body and all, over HTTP/1.1 (a refusal that
 * closes the connection must reach the test as an answer), and the random bits that make a run's
 * tokens and markers its own.
 */
public final class ServerCalls {

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  private ServerCalls() {}

  /**
   * Sends {@code body} (none when null) as JSON, with the bearer token when it is not null, and
   * {@code headers} (which may replace the content type).
   */
  public static HttpResponse<String> send(
      URI server,
      String token,
      String method,
      String path,
      String body,
      Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    request.header("Content-Type", "application/json");
    headers.forEach(request::setHeader);
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  public static String encode(String text) {
    return URLEncoder.encode(text, UTF_8);
  }

  /** {@code bytes} random bytes as lower-case hex. */
  public static String hex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }
}
