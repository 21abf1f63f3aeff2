import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for GitHub's REST API on loopback that rejects every token as GitHub does ({@code 401
 * Bad credentials}), for runs where the replicas offer GitHub login but the machine cannot reach
 * GitHub: tokens outside the static tokens file are then refused, as on a real deployment, rather
 * than answered with {@code 503}. Run with {@code java GitHubThatKnowsNobody.java PORT}.
 */
public final class GitHubThatKnowsNobody {

  private static final byte[] BAD_CREDENTIALS =
      "{\"message\":\"Bad credentials\",\"documentation_url\":\"https://docs.github.com/rest\",\"status\":\"401\"}"
          .getBytes(StandardCharsets.UTF_8);

  public static void main(String[] arguments) throws IOException {
    int port = Integer.parseInt(arguments[0]);
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
          exchange.sendResponseHeaders(401, BAD_CREDENTIALS.length);
          try (OutputStream body = exchange.getResponseBody()) {
            body.write(BAD_CREDENTIALS);
          }
        });
    server.start();
  }
}
