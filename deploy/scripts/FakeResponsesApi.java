import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
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

  private static final Pattern OUTPUTS = Pattern.compile("\"type\"\\s*:\\s*\"function_call_output\"");

  public static void main(String[] args) throws IOException {
    RecordingApi.serve("fake Responses API", args, FakeResponsesApi::answer);
  }

  private static void answer(HttpExchange exchange, RecordingApi.Request request, Path dir)
      throws IOException {
    if (request.path().equals("/v1/models")) {
      RecordingApi.send(
          exchange, 200, "application/json", "{\"object\":\"list\",\"data\":[],\"models\":[]}");
    } else if (request.path().equals("/v1/responses") && request.method().equals("POST")) {
      Matcher outputs = OUTPUTS.matcher(request.body());
      int done = 0;
      while (outputs.find()) {
        done++;
      }
      RecordingApi.send(
          exchange,
          200,
          "text/event-stream",
          stream(request.number(), step(dir, done, request.number())));
    } else {
      RecordingApi.send(
          exchange,
          404,
          "application/json",
          "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"Not found\"}}");
    }
  }

  /** The scripted output item for a request that carries {@code done} tool results. */
  private static String step(Path dir, int done, int number) throws IOException {
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
        + number
        + "\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"OK\","
        + "\"annotations\":[]}]}";
  }

  private static String stream(int number, String item) {
    return RecordingApi.event(
            "response.created",
            "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_" + number + "\"}}")
        + RecordingApi.event(
            "response.output_item.done",
            "{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":" + item + "}")
        + RecordingApi.event(
            "response.completed",
            "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_"
                + number
                + "\",\"usage\":{\"input_tokens\":10,\"input_tokens_details\":null,"
                + "\"output_tokens\":1,\"output_tokens_details\":null,\"total_tokens\":11}}}");
  }
}
