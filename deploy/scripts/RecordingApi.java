import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the fake model APIs (FakeMessagesApi.java, FakeResponsesApi.java) share: a server on
 * loopback that writes every request to {@code <dir>/NNN.txt} (method, path, then the body as
 * received) before its API answers it, and the answers' plumbing. {@code GET /} is the scripts'
 * readiness probe: answered, never recorded. Java's launcher finds this file beside the one it
 * runs ({@code java deploy/scripts/FakeMessagesApi.java PORT DIR}).
 */
final class RecordingApi {

  /** One request as received: its number (001 is the first recorded), method, path and body. */
  record Request(int number, String method, String path, String body) {}

  /** An API's answer to a request it was sent. */
  interface Answers {
    void answer(HttpExchange exchange, Request request, Path dir) throws IOException;
  }

  private static final AtomicInteger REQUESTS = new AtomicInteger();

  private RecordingApi() {}

  /** Serves {@code answers} on the port {@code args[0]}, recording into the folder {@code args[1]}.
   */
  static void serve(String name, String[] args, Answers answers) throws IOException {
    int port = Integer.parseInt(args[0]);
    Path dir = Files.createDirectories(Path.of(args[1]));
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 32);
    server.createContext("/", exchange -> answer(exchange, dir, name, answers));
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    System.out.println(name + " on http://127.0.0.1:" + port + ", recording in " + dir);
  }

  private static void answer(HttpExchange exchange, Path dir, String name, Answers answers)
      throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/")) {
        send(exchange, 200, "text/plain", name + "\n");
        return;
      }
      int number = REQUESTS.incrementAndGet();
      Files.writeString(
          dir.resolve(String.format("%03d.txt", number)),
          exchange.getRequestMethod() + " " + exchange.getRequestURI() + "\n" + body);
      answers.answer(
          exchange, new Request(number, exchange.getRequestMethod(), path, body), dir);
    }
  }

  /** One server-sent event. */
  static String event(String name, String data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  static void send(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
