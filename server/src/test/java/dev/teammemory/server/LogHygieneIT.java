package dev.teammemory.server;

import static dev.teammemory.server.ServerCalls.encode;
import static dev.teammemory.server.ServerCalls.hex;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing a caller sends reaches the server's log: a marker goes through every write path of both
 * APIs inside bad input (a NUL, an unpaired surrogate, a secret, too much, a bad key or path, bad
 * JSON, a bad parameter, a made-up id), and the packaged server's whole output, in either log
 * format, never holds it. Every request is refused, and the server keeps answering.
 */
class LogHygieneIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "hygiene-" + hex(16);
  private static final String REPO = "acme/hygiene";
  private static final String TEAM_MEMORY = "/api/claude_code/team_memory";

  /** Mixed case and digits: no route word, no id, nothing a log line would show by chance. */
  private static final String MARKER = "Mk" + hex(6) + "LogMarker" + hex(6);

  /** A token of GitHub's format, made per run, so that no scanner flags this file. */
  private static final String GITHUB_TOKEN = "ghp_" + hex(18);

  @TempDir Path work;

  private URI base;

  /** Each refusal, for the assertion's message. */
  private final List<String> answers = new ArrayList<>();

  @ParameterizedTest(name = "log format {0}")
  @ValueSource(strings = {"text", "json"})
  void aMarkerInBadInputThroughEveryWritePathNeverReachesTheLog(String format) throws Exception {
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(tokens, TOKEN + " hygienist acme/* write\n", UTF_8);
    Path log = work.resolve("server.log");
    try (PackagedServer server =
        PackagedServer.start(
            work.resolve("data"),
            log,
            Map.of("TMEM_LOG_FORMAT", format, "TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString()))) {
      base = server.url();
      String store = writeTheRepositoryAndItsStore();

      teamMemoryWrites();
      storeApiWrites(store);

      assertThat(send("GET", "/q/health/ready", null).statusCode()).isEqualTo(200);
      List<String> lines = Files.readAllLines(log, UTF_8);
      assertThat(lines).as("the server logged the requests").isNotEmpty();
      assertThat(lines)
          .as("log lines holding the marker, after:\n" + String.join("\n", answers))
          .filteredOn(line -> line.contains(MARKER) || line.contains(GITHUB_TOKEN.substring(4)))
          .isEmpty();
      if (format.equals("json")) {
        for (String line : lines) {
          JsonNode parsed = JSON.readTree(line);
          assertThat(parsed.isObject()).as(line).isTrue();
        }
      }
    }
  }

  private String writeTheRepositoryAndItsStore() throws Exception {
    expect(
        200, put(TEAM_MEMORY + "?repo=" + encode(REPO), "{\"entries\":{\"MEMORY.md\":\"# x\"}}"));
    HttpResponse<String> store = send("POST", "/v1/memory_stores", "{\"name\":\"" + REPO + "\"}");
    expect(200, store);
    return JSON.readTree(store.body()).path("id").asText();
  }

  private void teamMemoryWrites() throws Exception {
    String put = TEAM_MEMORY + "?repo=" + encode(REPO);
    expect(400, put(put, entries("nul.md", MARKER + " \\u0000")));
    expect(400, put(put, entries("surrogate.md", MARKER + " \\ud800")));
    expect(422, put(put, entries("secret.md", MARKER + " " + GITHUB_TOKEN)));
    expect(
        422,
        put(put, entries("secret.md", MARKER + " token " + GITHUB_TOKEN + " # gitleaks:allow")));
    expect(422, put(put, entries("notes/" + MARKER + "_" + GITHUB_TOKEN + ".md", "harmless")));
    expect(413, put(put, entries("big.md", MARKER + "a".repeat(250_001))));
    expect(413, put(put, entries("huge.md", MARKER + "a".repeat(1_100_000))));
    expect(400, put(put, entries("../" + MARKER + ".md", "x")));
    expect(400, put(put, entries(MARKER + "\\u0001.md", "x")));
    expect(400, put(put, "{\"entries\":{\"j.md\":\"" + MARKER));
    expect(400, put(put, "{\"entries\":{}, \"" + MARKER + "\": 1}"));
    expect(400, put(put, "{\"entries\":{\"" + MARKER + ".md\": 42}}"));
    expect(400, put(TEAM_MEMORY + "?repo=" + MARKER + "%21", entries("a.md", "x")));
    expect(
        415, send("PUT", put, entries("a.md", MARKER), Map.of("Content-Type", "text/" + MARKER)));
    String delete = TEAM_MEMORY + "?repo=" + encode(REPO) + "&key=";
    expect(404, send("DELETE", delete + encode("notes/" + MARKER + "_" + GITHUB_TOKEN), null));
    expect(400, send("DELETE", delete + encode(MARKER + "\u0000"), null));
    expect(400, send("DELETE", delete + encode("a.md") + "&expected_checksum=" + MARKER, null));
    expect(
        400,
        send(
            "DELETE",
            TEAM_MEMORY + "/history?repo=" + encode(REPO) + "&key=a.md&version=" + MARKER,
            null));
  }

  private void storeApiWrites(String store) throws Exception {
    String memories = "/v1/memory_stores/" + store + "/memories";
    expect(400, send("POST", memories, memory("/nul.md", MARKER + " a\\u0000b")));
    expect(400, send("POST", memories, memory("/surrogate.md", MARKER + " a\\ud800b")));
    expect(400, send("POST", memories, memory("/x" + MARKER + "\\ud800.md", "x")));
    expect(400, send("POST", memories, memory("/x" + MARKER + "\\u0000.md", "x")));
    expect(400, send("POST", memories, memory("/secret.md", MARKER + " " + GITHUB_TOKEN)));
    expect(400, send("POST", memories, memory("/" + MARKER + "_" + GITHUB_TOKEN + ".md", "x")));
    expect(400, send("POST", memories, memory("/big.md", MARKER + "a".repeat(102_401))));
    expect(400, send("POST", memories, memory(MARKER + ".md", "x")));
    expect(400, send("POST", memories, "{\"path\":\"/j.md\",\"content\":\"" + MARKER));
    expect(
        400,
        send(
            "POST",
            memories,
            "{\"path\":\"/p.md\",\"content\":\"x\",\"precondition\":{\"type\":\""
                + MARKER
                + "\"}}"));
    HttpResponse<String> created = send("POST", memories, memory("/kept.md", "kept"));
    expect(200, created);
    String id = JSON.readTree(created.body()).path("id").asText();
    expect(
        400,
        send(
            "POST", memories + "/" + id, "{\"path\":\"/" + GITHUB_TOKEN + "_" + MARKER + ".md\"}"));
    expect(400, send("POST", memories + "/" + id, "{\"content\":\"" + MARKER + "\\u0000\"}"));
    expect(
        400,
        send(
            "POST",
            memories + "/" + id,
            "{\"content\":\"x\",\"precondition\":{\"type\":\"content_sha256\",\"content_sha256\":\""
                + MARKER
                + "\"}}"));
    expect(400, send("DELETE", memories + "/" + id + "?expected_content_sha256=" + MARKER, null));
    expect(404, send("POST", memories + "/mem_" + MARKER, memory("/a.md", "x")));
    expect(
        404,
        send("POST", "/v1/memory_stores/memstore_" + MARKER + "/memories", memory("/a.md", "x")));
    String stores = "/v1/memory_stores";
    expect(
        400,
        send(
            "POST",
            stores,
            "{\"name\":\""
                + MARKER
                + " "
                + GITHUB_TOKEN
                + "\",\"metadata\":{\"repo\":\""
                + REPO
                + "\"}}"));
    expect(
        400,
        send(
            "POST",
            stores + "/" + store,
            "{\"description\":\"" + MARKER + " " + GITHUB_TOKEN + "\"}"));
    expect(400, send("POST", stores + "/" + store, "{\"description\":\"" + MARKER + "\\u0000\"}"));
    expect(
        400,
        send(
            "POST",
            stores + "/" + store,
            "{\"metadata\":{\"" + MARKER + "\":\"" + GITHUB_TOKEN + "\"}}"));
    expect(
        400,
        send("POST", stores + "/" + store, "{\"metadata\":{\"k\":\"" + MARKER + "\\ud800\"}}"));
    expect(400, send("POST", stores, "{\"name\":\"" + MARKER + "\"}"));
  }

  private static String entries(String key, String content) {
    return "{\"entries\":{\"" + key + "\":\"" + content + "\"}}";
  }

  private static String memory(String path, String content) {
    return "{\"path\":\"" + path + "\",\"content\":\"" + content + "\"}";
  }

  private HttpResponse<String> put(String path, String body) throws Exception {
    return send("PUT", path, body);
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    return send(method, path, body, Map.of());
  }

  private HttpResponse<String> send(
      String method, String path, String body, Map<String, String> headers)
      throws IOException, InterruptedException {
    return ServerCalls.send(base, TOKEN, method, path, body, headers);
  }

  private void expect(int status, HttpResponse<String> response) {
    String answer = response.request().method() + " " + response.statusCode();
    answers.add(answer + " " + response.body().lines().findFirst().orElse(""));
    assertThat(response.statusCode()).as(answer + ": " + response.body()).isEqualTo(status);
  }
}
