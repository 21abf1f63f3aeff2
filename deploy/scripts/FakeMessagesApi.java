import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.file.Path;

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

  public static void main(String[] args) throws IOException {
    RecordingApi.serve("fake Messages API", args, FakeMessagesApi::answer);
  }

  private static void answer(HttpExchange exchange, RecordingApi.Request request, Path dir)
      throws IOException {
    String model = field(request.body(), "model", "claude-sonnet-4-5");
    exchange.getResponseHeaders().set("request-id", "req_fake" + request.number());
    if (request.path().equals("/v1/messages/count_tokens")) {
      RecordingApi.send(
          exchange,
          200,
          "application/json",
          "{\"input_tokens\":" + (request.body().length() / 4) + "}");
    } else if (request.path().equals("/v1/messages") && request.method().equals("POST")) {
      if (request.body().replace(" ", "").contains("\"stream\":true")) {
        RecordingApi.send(exchange, 200, "text/event-stream", stream(request.number(), model));
      } else {
        RecordingApi.send(exchange, 200, "application/json", message(request.number(), model));
      }
    } else {
      RecordingApi.send(
          exchange,
          404,
          "application/json",
          "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"Not found\"}}");
    }
  }

  private static String message(int number, String model) {
    return "{\"id\":\"msg_fake"
        + number
        + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
        + model
        + "\",\"content\":[{\"type\":\"text\",\"text\":\"OK\"}],\"stop_reason\":\"end_turn\","
        + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}";
  }

  private static String stream(int number, String model) {
    return RecordingApi.event(
            "message_start",
            "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_fake"
                + number
                + "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
                + model
                + "\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}")
        + RecordingApi.event(
            "content_block_start",
            "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}")
        + RecordingApi.event(
            "content_block_delta",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"OK\"}}")
        + RecordingApi.event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
        + RecordingApi.event(
            "message_delta",
            "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},"
                + "\"usage\":{\"output_tokens\":1}}")
        + RecordingApi.event("message_stop", "{\"type\":\"message_stop\"}");
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
}
