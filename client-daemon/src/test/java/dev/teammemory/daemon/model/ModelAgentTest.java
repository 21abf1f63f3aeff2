package dev.teammemory.daemon.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelAgentTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MockWebServer server = new MockWebServer();
  @TempDir Path directory;
  private Path notes;
  private Path other;

  @BeforeEach
  void start() throws IOException {
    server.start();
    notes = Files.writeString(directory.resolve("summary.md"), "# Title\n_desc_\nold\n");
    other = Files.writeString(directory.resolve("other.md"), "keep me\n");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private AgentOutcome run(int maxTurns) {
    AnthropicLanguageModel model =
        new AnthropicLanguageModel(AnthropicLanguageModelTest.settings(server), delay -> {});
    ModelAgent agent =
        new ModelAgent(model, List.of(new FileEditTool()), PermissionGate.onlyEditing(notes));
    return agent.run(
        "claude-test", 1000, "system", List.of(ModelMessage.user("update the notes")), maxTurns);
  }

  private static String toolUse(String id, String name, String inputJson) {
    return "{\"type\":\"tool_use\",\"id\":\""
        + id
        + "\",\"name\":\""
        + name
        + "\",\"input\":"
        + inputJson
        + "}";
  }

  @Test
  void allowedCallsRunAndDeniedOnesAreAnsweredWithTheGatesMessage() throws Exception {
    server.enqueue(
        AnthropicLanguageModelTest.message(
            "["
                + toolUse(
                    "t1",
                    "Edit",
                    "{\"file_path\":\""
                        + notes
                        + "\",\"old_string\":\"old\",\"new_string\":\"new\"}")
                + ","
                + toolUse(
                    "t2",
                    "Edit",
                    "{\"file_path\":\""
                        + other
                        + "\",\"old_string\":\"keep me\",\"new_string\":\"gone\"}")
                + ","
                + toolUse("t3", "Bash", "{\"command\":\"rm -rf /\"}")
                + "]",
            "tool_use"));
    server.enqueue(
        AnthropicLanguageModelTest.message("[{\"type\":\"text\",\"text\":\"Done.\"}]", "end_turn"));

    AgentOutcome outcome = run(3);

    assertThat(outcome).isInstanceOf(AgentOutcome.Finished.class);
    assertThat(((AgentOutcome.Finished) outcome).finalText()).isEqualTo("Done.");
    assertThat(outcome.toolCalls())
        .containsExactly(
            new AgentOutcome.ToolCall("Edit", true, false),
            new AgentOutcome.ToolCall("Edit", false, true),
            new AgentOutcome.ToolCall("Bash", false, true));
    assertThat(Files.readString(notes)).isEqualTo("# Title\n_desc_\nnew\n");
    assertThat(Files.readString(other)).isEqualTo("keep me\n");
    server.takeRequest();
    JsonNode second = JSON.readTree(server.takeRequest().getBody().utf8());
    JsonNode results = second.path("messages").get(2).path("content");
    assertThat(results.get(0).path("is_error").asBoolean()).isFalse();
    assertThat(results.get(1).path("content").asText())
        .isEqualTo("only Edit on " + notes + " is allowed");
    assertThat(results.get(1).path("is_error").asBoolean()).isTrue();
    assertThat(results.get(2).path("is_error").asBoolean()).isTrue();
  }

  @Test
  void stopsAtTheTurnLimit() {
    for (int i = 0; i < 2; i++) {
      server.enqueue(
          AnthropicLanguageModelTest.message(
              "["
                  + toolUse(
                      "t" + i,
                      "Edit",
                      "{\"file_path\":\"" + notes + "\",\"old_string\":\"x\",\"new_string\":\"y\"}")
                  + "]",
              "tool_use"));
    }

    AgentOutcome outcome = run(2);

    assertThat(outcome).isInstanceOf(AgentOutcome.TurnLimitReached.class);
    assertThat(outcome.toolCalls())
        .containsExactly(
            new AgentOutcome.ToolCall("Edit", true, true),
            new AgentOutcome.ToolCall("Edit", true, true));
  }

  @Test
  void aFailedModelCallEndsTheRunAsAFailure() {
    server.enqueue(
        AnthropicLanguageModelTest.error(401, "authentication_error", "invalid x-api-key"));

    AgentOutcome outcome = run(3);

    assertThat(outcome).isInstanceOf(AgentOutcome.Failed.class);
    assertThat(((AgentOutcome.Failed) outcome).failure().type()).isEqualTo("authentication_error");
  }

  @Test
  void aToolTheGateAllowsButTheAgentLacksIsAnErrorResult() {
    AnthropicLanguageModel model =
        new AnthropicLanguageModel(AnthropicLanguageModelTest.settings(server), delay -> {});
    ModelAgent agent =
        new ModelAgent(model, List.of(), (name, input) -> new Permission.Allow(input));
    server.enqueue(
        AnthropicLanguageModelTest.message("[" + toolUse("t1", "Write", "{}") + "]", "tool_use"));
    server.enqueue(
        AnthropicLanguageModelTest.message("[{\"type\":\"text\",\"text\":\"ok\"}]", "end_turn"));

    AgentOutcome outcome = agent.run("claude-test", 100, "", List.of(ModelMessage.user("go")), 3);

    assertThat(outcome.toolCalls()).containsExactly(new AgentOutcome.ToolCall("Write", true, true));
  }
}
