package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.cli.ExtractCommand;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelSettings;
import dev.teammemory.daemon.model.RetryPolicy;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.testing.CommandRun;
import dev.teammemory.daemon.testing.ScriptedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A model-driven extraction whose model tries everything it must not do. */
class ModelExtractionTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private static MockResponse response(String stopReason, ArrayNode content) {
    ObjectNode body =
        JSON.createObjectNode()
            .put("id", "msg_x")
            .put("type", "message")
            .put("role", "assistant")
            .put("stop_reason", stopReason);
    body.set("content", content);
    return ScriptedServer.json(200, body.toString());
  }

  private static void toolUse(ArrayNode content, String id, String name, ObjectNode input) {
    content.addObject().put("type", "tool_use").put("id", id).put("name", name).set("input", input);
  }

  @Test
  void thePermissionGateStopsEveryWriteOutsideMemoryEveryWritingCommandAndEverySecretForTheTeam()
      throws IOException {
    Path project = Files.createDirectories(home.resolve("app"));
    Path memory = Files.createDirectories(home.resolve("memory/team")).getParent();
    Path sourceFile = project.resolve("src/App.md");
    String token = MemoryWriteGateTest.githubToken();
    ArrayNode calls = JSON.createArrayNode();
    toolUse(
        calls,
        "t1",
        "Write",
        JSON.createObjectNode().put("file_path", sourceFile.toString()).put("content", "hacked"));
    toolUse(calls, "t2", "Bash", JSON.createObjectNode().put("command", "rm -rf " + memory));
    toolUse(
        calls,
        "t3",
        "Write",
        JSON.createObjectNode()
            .put("file_path", memory.resolve("team/ci.md").toString())
            .put("content", "token " + token));
    toolUse(
        calls,
        "t4",
        "Write",
        JSON.createObjectNode()
            .put("file_path", memory.resolve("feedback_bun.md").toString())
            .put(
                "content",
                "---\nname: Bun\ndescription: use bun, not npm\ntype: feedback\n---\n\nUse bun.\n"));
    toolUse(calls, "t5", "Bash", JSON.createObjectNode().put("command", "ls " + memory));
    ArrayNode done = JSON.createArrayNode();
    done.addObject().put("type", "text").put("text", "Saved one memory.");
    AtomicInteger turn = new AtomicInteger();
    HandMadeTranscript transcript = new HandMadeTranscript("s1", project.toString());
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("ok");
    Path transcriptFile = transcript.write(home.resolve("s1.jsonl"));

    try (ScriptedServer server =
        new ScriptedServer(
            request ->
                turn.incrementAndGet() == 1
                    ? response("tool_use", calls)
                    : response("end_turn", done))) {
      ModelSettings settings =
          ModelSettings.fromEnvironment(
                  Map.of("ANTHROPIC_API_KEY", "sk-test", "ANTHROPIC_BASE_URL", server.url()))
              .withRetryPolicy(new RetryPolicy(0, Duration.ZERO, Duration.ZERO, Duration.ZERO));
      Environment environment =
          new Environment(
              Map.of(
                  MemoryLocation.OVERRIDE_VARIABLE,
                  memory.toString(),
                  "XDG_STATE_HOME",
                  home.resolve("state").toString()),
              home,
              project);
      ExtractionOutcome outcome =
          new Extraction(
                  ClaudeLayout.of(environment),
                  new AnthropicLanguageModel(settings),
                  Clock.systemUTC(),
                  SecretGuard.withDefaultRules())
              .afterTurn(
                  new ExtractionRequest(
                      transcriptFile, MemoryLocation.resolve(environment), false, project));

      assertThat(outcome)
          .isEqualTo(
              new ExtractionOutcome.Extracted(
                  "model claude-sonnet-4-5",
                  3,
                  List.of(
                      new ExtractionOutcome.Change(memory.resolve("feedback_bun.md"), "written")),
                  List.of(),
                  0));
      assertThat(sourceFile).doesNotExist();
      assertThat(memory.resolve("team/ci.md")).doesNotExist();
      assertThat(memory).isDirectory();
      JsonNode second = JSON.readTree(server.requests().get(1).getBody().utf8());
      JsonNode results = second.path("messages").get(2).path("content");
      assertThat(results.findValuesAsText("is_error"))
          .containsExactly("true", "true", "true", "false", "false");
      assertThat(results.toString()).doesNotContain(token.substring(8));
      JsonNode first = JSON.readTree(server.requests().get(0).getBody().utf8());
      assertThat(first.path("tools").findValuesAsText("name"))
          .containsExactly("Read", "Grep", "Glob", "Bash", "Edit", "Write");
      assertThat(first.path("messages").get(0).path("content").get(0).path("text").asText())
          .contains(
              "[user] No, use bun instead of npm.", "## What belongs elsewhere", "## Team memory");
    }
  }

  @Test
  void throughTmemExtractTheModelMaySearchWithGrepAndListWithGlobAnywhere() throws IOException {
    Path project = Files.createDirectories(home.resolve("app"));
    Files.createDirectories(project.resolve("src"));
    Files.writeString(project.resolve("package.json"), "{\"packageManager\": \"bun@1.1.38\"}\n");
    Files.writeString(project.resolve("src/index.ts"), "export const answer = 42;\n");
    Path memory = home.resolve("memory");
    ArrayNode calls = JSON.createArrayNode();
    toolUse(
        calls,
        "g1",
        "Grep",
        JSON.createObjectNode()
            .put("pattern", "packageManager")
            .put("path", project.toString())
            .put("output_mode", "content"));
    toolUse(calls, "g2", "Glob", JSON.createObjectNode().put("pattern", "**/*.ts"));
    ArrayNode done = JSON.createArrayNode();
    done.addObject().put("type", "text").put("text", "Nothing new to save.");
    AtomicInteger turn = new AtomicInteger();
    HandMadeTranscript transcript = new HandMadeTranscript("s2", project.toString());
    transcript.user("Which package manager does this repo use?");
    transcript.assistant("bun, per package.json.");
    Path transcriptFile = transcript.write(home.resolve("s2.jsonl"));

    try (ScriptedServer server =
        new ScriptedServer(
            request ->
                turn.incrementAndGet() == 1
                    ? response("tool_use", calls)
                    : response("end_turn", done))) {
      Environment environment =
          new Environment(
              Map.of(
                  "ANTHROPIC_API_KEY",
                  "sk-test",
                  "ANTHROPIC_BASE_URL",
                  server.url(),
                  MemoryLocation.OVERRIDE_VARIABLE,
                  memory.toString(),
                  "CLAUDE_CONFIG_DIR",
                  home.resolve(".claude").toString(),
                  "XDG_STATE_HOME",
                  home.resolve("state").toString()),
              home,
              project);

      CommandRun run = new CommandRun();
      int exit =
          run.run(
              new ExtractCommand(environment, Clock.systemUTC()),
              "--transcript",
              transcriptFile.toString(),
              "--cwd",
              project.toString());

      assertThat(exit).as(run.err()).isZero();
      assertThat(run.out()).startsWith("extracted by model claude-sonnet-4-5");
      JsonNode first = JSON.readTree(server.requests().get(0).getBody().utf8());
      assertThat(first.path("tools").findValuesAsText("name")).contains("Grep", "Glob");
      assertThat(first.path("messages").get(0).path("content").get(0).path("text").asText())
          .contains("Grep", "Glob");
      JsonNode results =
          JSON.readTree(server.requests().get(1).getBody().utf8())
              .path("messages")
              .get(2)
              .path("content");
      assertThat(results.findValuesAsText("is_error")).containsExactly("false", "false");
      assertThat(results.get(0).path("content").toString())
          .contains(
              project.resolve("package.json") + ":1:{\\\"packageManager\\\": \\\"bun@1.1.38\\\"}");
      assertThat(results.get(1).path("content").toString())
          .contains(project.resolve("src/index.ts").toString());
    }
  }
}
