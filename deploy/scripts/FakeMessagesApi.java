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
 * A stand-in for Anthropic's Messages API on loopback, for deploy/scripts/claude-code-hooks.sh:
 * every request is written to {@code <dir>/NNN.txt} (method, path, then the body as received), and
 * every {@code POST /v1/messages} is answered with an assistant message saying "OK", as a stream of
 * server-sent events when the request asks for {@code "stream": true} and as one JSON message
 * otherwise, in the shapes the real API uses. {@code /v1/messages/count_tokens} gets a count; any
 * other path a 404 in the API's error shape.
 *
 * <p>java deploy/scripts/FakeMessagesApi.java PORT DIR
 */
public final class FakeMessagesApi {

  private static final AtomicInteger REQUESTS = new AtomicInteger();

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(args[0]);
    Path dir = Files.createDirectories(Path.of(args[1]));
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 32);
    server.createContext("/", exchange -> answer(exchange, dir));
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    System.out.println("fake Messages API on http://127.0.0.1:" + port + ", recording in " + dir);
  }

  private static void answer(HttpExchange exchange, Path dir) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String path = exchange.getRequestURI().getPath();
      String text = new String(body, StandardCharsets.UTF_8);
      Files.writeString(
          dir.resolve(String.format("%03d.txt", REQUESTS.incrementAndGet())),
          exchange.getRequestMethod() + " " + exchange.getRequestURI() + "\n" + text);
      String model = field(text, "model", "claude-sonnet-4-5");
      if (path.equals("/v1/messages/count_tokens")) {
        send(exchange, 200, "application/json", "{\"input_tokens\":" + (text.length() / 4) + "}");
      } else if (path.equals("/v1/messages") && exchange.getRequestMethod().equals("POST")) {
        if (text.replace(" ", "").contains("\"stream\":true")) {
          send(exchange, 200, "text/event-stream", stream(model));
        } else {
          send(exchange, 200, "application/json", message(model));
        }
      } else {
        send(
            exchange,
            404,
            "application/json",
            "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"Not found\"}}");
      }
    }
  }

  private static String message(String model) {
    return "{\"id\":\"msg_fake"
        + REQUESTS.get()
        + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
        + model
        + "\",\"content\":[{\"type\":\"text\",\"text\":\"OK\"}],\"stop_reason\":\"end_turn\","
        + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}";
  }

  private static String stream(String model) {
    return event(
            "message_start",
            "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_fake"
                + REQUESTS.get()
                + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
                + model
                + "\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}")
        + event(
            "content_block_start",
            "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}")
        + event(
            "content_block_delta",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"OK\"}}")
        + event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
        + event(
            "message_delta",
            "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},"
                + "\"usage\":{\"output_tokens\":1}}")
        + event("message_stop", "{\"type\":\"message_stop\"}");
  }

  private static String event(String name, String data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  /** A top-level string field, found the simple way: the recorded body is what matters here. */
  private static String field(String json, String name, String otherwise) {
    int at = json.indexOf("\"" + name + "\":\"");
    if (at < 0) {
      return otherwise;
    }
    int start = at + name.length() + 4;
    int end = json.indexOf('"', start);
    return end < 0 ? otherwise : json.substring(start, end);
  }

  private static void send(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("request-id", "req_fake" + REQUESTS.get());
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
