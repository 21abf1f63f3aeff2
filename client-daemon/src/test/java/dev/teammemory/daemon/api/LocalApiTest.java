package dev.teammemory.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.testing.OfflineMachine;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local API over a real socket. */
class LocalApiTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private final HttpClient http = HttpClient.newHttpClient();
  private Path project;
  private Path state;
  private LocalApi api;
  private String token;

  @BeforeEach
  void start() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    Path memory = Files.createDirectories(home.resolve("memory"));
    Files.writeString(
        memory.resolve("feedback_bun.md"),
        "---\nname: Bun\ndescription: package manager: use bun, not npm\ntype: feedback\n---\n\nUse bun.\n");
    Environment environment = OfflineMachine.environment(home, memory, project);
    state = OfflineMachine.stateHome(home);
    api =
        LocalApi.start(
            0,
            new MemoryServices(environment, Clock.systemUTC()),
            new HookAnswers(environment, Clock.systemUTC()),
            ApiToken.loadOrCreate(state));
    token = Files.readString(ApiToken.file(state)).strip();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private HttpResponse<String> send(String method, String path, String body, String bearer)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.url() + path));
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body());
  }

  @Test
  void theTokenFileIsPrivateAndRequestsWithoutItAreRefused() throws Exception {
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(ApiToken.file(state))))
        .isEqualTo("rw-------");
    assertThat(token).hasSize(64);

    HttpResponse<String> missing = send("POST", "/v1/recall", "{\"query\":\"bun\"}", null);
    HttpResponse<String> wrong = send("POST", "/v1/recall", "{\"query\":\"bun\"}", "0".repeat(64));

    assertThat(missing.statusCode()).isEqualTo(401);
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(json(wrong).path("error").asText()).isEqualTo("unauthorized");
    assertThat(wrong.body()).doesNotContain(token);
  }

  @Test
  void itListensOnLoopbackOnly() {
    assertThat(api.url()).startsWith("http://127.0.0.1:");
  }

  @Test
  void recallAnswersWithTheMemoriesAsTmemRecallPrintsThem() throws Exception {
    HttpResponse<String> response =
        send(
            "POST",
            "/v1/recall",
            "{\"query\":\"which package manager to install with\",\"session\":\"s-1\"}",
            token);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(json(response).path("memories").get(0).path("filename").asText())
        .isEqualTo("feedback_bun.md");
    assertThat(
            json(send(
                    "POST",
                    "/v1/recall",
                    "{\"query\":\"which package manager to install with\",\"session\":\"s-1\"}",
                    token))
                .path("memories"))
        .isEmpty();
  }

  @Test
  void notesAreFoundBySessionAndAMissingOneIs404() throws Exception {
    assertThat(send("GET", "/v1/notes?session=s-1", null, token).statusCode()).isEqualTo(404);
    Path notes = new ClaudeLayout(home.resolve(".claude"), state).sessionNotes(project, "s-1");
    Files.createDirectories(notes.getParent());
    Files.writeString(notes, "# Current State\nAdding the mutex.\n");

    HttpResponse<String> response =
        send("GET", "/v1/notes?session=s-1&cwd=" + project, null, token);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(json(response).path("content").asText())
        .isEqualTo("# Current State\nAdding the mutex.\n");
    assertThat(send("GET", "/v1/notes?session=../etc", null, token).statusCode()).isEqualTo(400);
  }

  @Test
  void compactAnswersWithTheCompactedConversation() throws Exception {
    Path transcript = home.resolve("auth-session.jsonl");
    Path notes = home.resolve("summary.md");
    try (InputStream in = getClass().getResourceAsStream("/compact/auth-session.jsonl")) {
      Files.copy(in, transcript);
    }
    try (InputStream in = getClass().getResourceAsStream("/compact/auth-session.summary.md")) {
      Files.copy(in, notes);
    }
    String body =
        JSON.createObjectNode()
            .put("transcript", transcript.toString())
            .put("notes", notes.toString())
            .put("lastSummarized", "00000000-0000-4000-8000-000000000017")
            .toString();

    HttpResponse<String> response = send("POST", "/v1/compact", body, token);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(json(response).path("level").asInt()).isEqualTo(1);
    assertThat(json(response).path("messages").get(0).path("subtype").asText())
        .isEqualTo("compact_boundary");
  }

  @Test
  void badRequestsSayWhatIsWrong() throws Exception {
    assertThat(
            json(send("POST", "/v1/compact", "{\"transcript\":\"relative.jsonl\"}", token))
                .path("message")
                .asText())
        .isEqualTo("\"transcript\" must be an absolute path: relative.jsonl");
    assertThat(send("POST", "/v1/recall", "not json", token).statusCode()).isEqualTo(400);
    assertThat(send("GET", "/v1/recall", null, token).statusCode()).isEqualTo(405);
    assertThat(send("GET", "/v2/anything", null, token).statusCode()).isEqualTo(404);
  }

  @Test
  void hooksAnswerAsTheHookCommandPrintsAndAnUnknownHookIsNamed() throws Exception {
    String input =
        JSON.writeValueAsString(
            Map.of(
                "session_id",
                "s-9",
                "cwd",
                project.toString(),
                "hook_event_name",
                "UserPromptSubmit",
                "prompt",
                "which package manager do we use for installs?"));

    HttpResponse<String> prompt = send("POST", "/v1/hooks/user-prompt", input, token);
    HttpResponse<String> unknown = send("POST", "/v1/hooks/post-tool-use", input, token);

    assertThat(prompt.statusCode()).isEqualTo(200);
    assertThat(json(prompt).path("hookSpecificOutput").path("additionalContext").asText())
        .contains("Use bun.");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(json(unknown).path("message").asText())
        .isEqualTo(
            "no hook post-tool-use; there are session-start, user-prompt, pre-compact, stop");
    assertThat(send("GET", "/v1/hooks/user-prompt", null, token).statusCode()).isEqualTo(405);
  }
}
