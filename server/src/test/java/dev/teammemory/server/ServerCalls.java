package dev.teammemory.server;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
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

  /** An answer read off a raw socket: the status, the head (status line and headers), the body. */
  public record RawReply(int status, String head, String body) {}

  /**
   * Sends a GET of {@code target} exactly as written, on a raw socket: a client library refuses to
   * send most of what the HTTP layer must refuse (a bad percent-encoding, a huge request line).
   * {@code extraHeaders} are whole header lines, each ending in CRLF.
   */
  public static RawReply rawGet(URI server, String token, String target, String extraHeaders)
      throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(server.getHost(), server.getPort()));
      socket.setSoTimeout(30_000);
      String request =
          "GET "
              + target
              + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
              + token
              + "\r\nConnection: close\r\n"
              + extraHeaders
              + "\r\n";
      socket.getOutputStream().write(request.getBytes(ISO_8859_1));
      socket.getOutputStream().flush();
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          received.write(buffer, 0, n);
        }
      } catch (SocketException reset) {
        // the server may close with our unread request still in its buffer
      }
      String text = received.toString(UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String head = split < 0 ? text : text.substring(0, split);
      String body = split < 0 ? "" : text.substring(split + 4);
      return new RawReply(Integer.parseInt(head.substring(9, 12)), head, body);
    }
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
