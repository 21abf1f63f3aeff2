import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for OpenAI's Responses API on loopback, for deploy/scripts/codex-hooks.sh: every
 * request is written to {@code <dir>/NNN.txt} (method, path, then the body as received). A {@code
 * POST /v1/responses} is answered with a stream of server-sent events, {@code
 * response.output_item.done} then {@code response.completed}, as the real API streams them. What
 * the model "says" is scripted in {@code <dir>/script.jsonl}, read at each request: a request that
 * carries k tool results ({@code function_call_output} items) gets line k+1 as its output item (a
 * {@code function_call} to make, with {@code call_id} filled in), and a plain message "OK" once the
 * script is used up. {@code GET /v1/models} lists no models; anything else is a 404.
 *
 * <p>java deploy/scripts/FakeResponsesApi.java PORT DIR
 */
public final class FakeResponsesApi {

  private static final AtomicInteger REQUESTS = new AtomicInteger();
  private static final Pattern OUTPUTS = Pattern.compile("\"type\"\\s*:\\s*\"function_call_output\"");

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(args[0]);
    Path dir = Files.createDirectories(Path.of(args[1]));
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 32);
    server.createContext("/", exchange -> answer(exchange, dir));
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    System.out.println("fake Responses API on http://127.0.0.1:" + port + ", recording in " + dir);
  }

  private static void answer(HttpExchange exchange, Path dir) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String path = exchange.getRequestURI().getPath();
      String text = new String(body, StandardCharsets.UTF_8);
      int number = REQUESTS.incrementAndGet();
      if (!path.equals("/")) {
        Files.writeString(
            dir.resolve(String.format("%03d.txt", number)),
            exchange.getRequestMethod() + " " + exchange.getRequestURI() + "\n" + text);
      }
      if (path.equals("/v1/models")) {
        send(exchange, 200, "application/json", "{\"object\":\"list\",\"data\":[],\"models\":[]}");
      } else if (path.equals("/v1/responses") && exchange.getRequestMethod().equals("POST")) {
        Matcher outputs = OUTPUTS.matcher(text);
        int done = 0;
        while (outputs.find()) {
          done++;
        }
        send(exchange, 200, "text/event-stream", stream(number, step(dir, done)));
      } else if (path.equals("/")) {
        send(exchange, 200, "text/plain", "fake Responses API\n");
      } else {
        send(
            exchange,
            404,
            "application/json",
            "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Not found\"}}");
      }
    }
  }

  /** The scripted output item for a request that carries {@code done} tool results. */
  private static String step(Path dir, int done) throws IOException {
    List<String> script;
    try {
      script =
          Files.readAllLines(dir.resolve("script.jsonl")).stream()
              .filter(line -> !line.isBlank())
              .toList();
    } catch (NoSuchFileException none) {
      script = List.of();
    }
    if (done < script.size()) {
      String call = script.get(done).strip();
      // The call's id, so that its result can be told apart in the next request.
      return "{\"call_id\":\"call_" + (done + 1) + "\"," + call.substring(1);
    }
    return "{\"type\":\"message\",\"role\":\"assistant\",\"id\":\"msg_"
        + REQUESTS.get()
        + "\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"OK\","
        + "\"annotations\":[]}]}";
  }

  private static String stream(int number, String item) {
    return event(
            "response.created",
            "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_" + number + "\"}}")
        + event(
            "response.output_item.done",
            "{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":" + item + "}")
        + event(
            "response.completed",
            "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_"
                + number
                + "\",\"usage\":{\"input_tokens\":10,\"input_tokens_details\":null,"
                + "\"output_tokens\":1,\"output_tokens_details\":null,\"total_tokens\":11}}}");
  }

  private static String event(String name, String data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  private static void send(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
