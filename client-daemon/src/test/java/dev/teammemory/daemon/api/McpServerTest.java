package dev.teammemory.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private Environment environment;

  @BeforeEach
  void memory() throws IOException {
    Path memory = Files.createDirectories(home.resolve("memory"));
    Files.writeString(
        memory.resolve("feedback_bun.md"),
        "---\nname: Bun\ndescription: package manager: use bun, not npm\ntype: feedback\n---\n\nUse bun.\n");
    environment =
        new Environment(
            Map.of(
                "CLAUDE_CONFIG_DIR",
                home.resolve(".claude").toString(),
                "XDG_STATE_HOME",
                home.resolve("xdg").toString(),
                MemoryLocation.OVERRIDE_VARIABLE,
                memory.toString(),
                "TMEM_OFFLINE",
                "1"),
            home,
            Files.createDirectories(home.resolve("app")));
  }

  private List<JsonNode> session(String... lines) throws IOException {
    CommandRun tmem = new CommandRun();
    byte[] input = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    assertThat(
            tmem.run(
                new McpCommand(environment, new ByteArrayInputStream(input), Clock.systemUTC())))
        .isZero();
    return tmem.out()
        .lines()
        .map(
            line -> {
              try {
                return JSON.readTree(line);
              } catch (IOException notJson) {
                throw new AssertionError(line, notJson);
              }
            })
        .toList();
  }

  @Test
  void aClientInitializesListsTheToolsAndCallsRecall() throws IOException {
    List<JsonNode> responses =
        session(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":{\"query\":\"which package manager\"}}}");

    assertThat(responses).hasSize(3);
    assertThat(responses.get(0).path("result").path("protocolVersion").asText())
        .isEqualTo("2025-03-26");
    assertThat(responses.get(0).path("result").path("serverInfo").path("name").asText())
        .isEqualTo("tmem");
    assertThat(responses.get(1).path("result").path("tools").findValuesAsText("name"))
        .contains("recall", "notes", "compact");
    JsonNode call = responses.get(2).path("result");
    assertThat(call.path("isError").asBoolean()).isFalse();
    assertThat(
            JSON.readTree(call.path("content").get(0).path("text").asText())
                .path("memories")
                .get(0)
                .path("filename")
                .asText())
        .isEqualTo("feedback_bun.md");
  }

  @Test
  void aToolsOwnFailureIsAnErrorResultAndAnUnknownMethodAProtocolError() throws IOException {
    List<JsonNode> responses =
        session(
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\",\"params\":{\"name\":\"notes\",\"arguments\":{\"session\":\"nope\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"resources/list\"}",
            "this is not json");

    assertThat(responses.get(0).path("result").path("isError").asBoolean()).isTrue();
    assertThat(responses.get(0).path("result").path("content").get(0).path("text").asText())
        .isEqualTo("session nope has no notes yet");
    assertThat(responses.get(1).path("error").path("code").asInt()).isEqualTo(-32601);
    assertThat(responses.get(2).path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(responses.get(2).path("id").isNull()).isTrue();
  }
}
