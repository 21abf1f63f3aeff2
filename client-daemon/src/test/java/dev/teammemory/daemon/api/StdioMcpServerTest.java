package dev.teammemory.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.secrets.SecretTokens;
import dev.teammemory.daemon.testing.OfflineMachine;
import dev.teammemory.protocol.Checksums;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SDK-based stdio server, spoken to line by line as an MCP client does. */
class StdioMcpServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private Path memory;
  private OutputStream toServer;
  private final LinkedBlockingQueue<JsonNode> fromServer = new LinkedBlockingQueue<>();
  private Thread server;
  private int nextId = 1;

  @BeforeEach
  void start() throws IOException {
    memory = Files.createDirectories(home.resolve("memory"));
    OfflineMachine.teamTestingPolicy(memory);
    // What a daemon's pull keeps: the server's author of the version on disk.
    Path projectState =
        Files.createDirectories(OfflineMachine.stateHome(home).resolve("projects/acme_app-1"));
    Files.writeString(
        projectState.resolve("authors.json"),
        JSON.writeValueAsString(
            Map.of(
                "teamDir",
                memory.resolve("team").toRealPath().toString(),
                "authors",
                Map.of(
                    "testing-policy.md",
                    Map.of(
                        "author",
                        "alice",
                        "at",
                        "2026-11-28T09:15:00Z",
                        "checksum",
                        Checksums.ofContent(
                            Files.readString(memory.resolve("team/testing-policy.md"))))))));
    Environment environment =
        OfflineMachine.environment(home, memory, Files.createDirectories(home.resolve("app")));
    PipedInputStream serverIn = new PipedInputStream(1 << 16);
    toServer = new PipedOutputStream(serverIn);
    PipedInputStream clientIn = new PipedInputStream(1 << 16);
    PipedOutputStream serverOut = new PipedOutputStream(clientIn);
    McpTools tools = new McpTools(environment, Clock.systemUTC(), McpTools.Binding.STARTED_IN);
    server =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    new StdioMcpServer(tools, "test").serve(serverIn, serverOut);
                    serverOut.close();
                  } catch (InterruptedException | IOException stopped) {
                    Thread.currentThread().interrupt();
                  }
                });
    Thread.ofVirtual()
        .start(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  fromServer.add(JSON.readTree(line));
                }
              } catch (IOException ended) {
                // The server closed its end.
              }
            });
  }

  @AfterEach
  void stop() throws Exception {
    toServer.close();
    server.join(java.time.Duration.ofSeconds(10));
  }

  private JsonNode request(String method, Object params) throws Exception {
    int id = nextId++;
    ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id);
    message.put("method", method);
    message.set("params", JSON.valueToTree(params));
    send(message);
    while (true) {
      JsonNode answer = fromServer.poll(20, TimeUnit.SECONDS);
      assertThat(answer).as("an answer to " + method).isNotNull();
      if (answer.path("id").asInt(-1) == id) {
        return answer;
      }
    }
  }

  private void send(JsonNode message) throws IOException {
    toServer.write((message.toString() + "\n").getBytes(StandardCharsets.UTF_8));
    toServer.flush();
  }

  private JsonNode initialize(String version) throws Exception {
    JsonNode answer =
        request(
            "initialize",
            Map.of(
                "protocolVersion",
                version,
                "capabilities",
                Map.of(),
                "clientInfo",
                Map.of("name", "test", "version", "1")));
    send(JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"));
    return answer;
  }

  private JsonNode call(String tool, Map<String, Object> arguments) throws Exception {
    return request("tools/call", Map.of("name", tool, "arguments", arguments)).path("result");
  }

  private static String text(JsonNode result) {
    return result.path("content").get(0).path("text").asText();
  }

  @Test
  void anUnknownProtocolVersionIsAnsweredWithTheServersOwnNotEchoed() throws Exception {
    JsonNode answer = initialize("1999-01-01");

    assertThat(answer.path("result").path("protocolVersion").asText())
        .isNotEqualTo("1999-01-01")
        .matches("\\d{4}-\\d{2}-\\d{2}");
    assertThat(answer.path("result").path("serverInfo").path("name").asText()).isEqualTo("tmem");
  }

  @Test
  void aKnownProtocolVersionIsKept() throws Exception {
    assertThat(initialize("2025-06-18").path("result").path("protocolVersion").asText())
        .isEqualTo("2025-06-18");
  }

  @Test
  void everyToolIsListedWithReadOnlyHintsOnTheReadingOnes() throws Exception {
    initialize("2025-06-18");

    JsonNode tools = request("tools/list", Map.of()).path("result").path("tools");

    List<String> names = new java.util.ArrayList<>();
    tools.forEach(tool -> names.add(tool.path("name").asText()));
    assertThat(names)
        .containsExactly(
            "memory_search",
            "memory_read",
            "memory_list",
            "memory_save",
            "memory_delete",
            "recall",
            "notes",
            "compact");
    for (JsonNode tool : tools) {
      boolean reads = !List.of("memory_save", "memory_delete").contains(tool.path("name").asText());
      assertThat(tool.path("annotations").path("readOnlyHint").asBoolean())
          .as(tool.path("name").asText())
          .isEqualTo(reads);
      assertThat(tool.path("inputSchema").path("properties").has("project")).isFalse();
    }
  }

  @Test
  void aSavedTeamMemoryIsFoundListedAndReadWithItsIndexLine() throws Exception {
    initialize("2025-06-18");

    JsonNode saved =
        call(
            "memory_save",
            Map.of(
                "scope",
                "team",
                "name",
                "release-train",
                "type",
                "project",
                "description",
                "releases leave on Tuesdays",
                "body",
                "Releases leave on Tuesdays; the freeze starts Monday noon."));

    assertThat(saved.path("isError").asBoolean()).as(text(saved)).isFalse();
    assertThat(JSON.readTree(text(saved)).path("path").asText()).isEqualTo("team/release-train.md");
    assertThat(Files.readString(memory.resolve("team/release-train.md")))
        .startsWith(
            "---\nname: release-train\ndescription: \"releases leave on Tuesdays\"\ntype: project\n")
        .endsWith("Releases leave on Tuesdays; the freeze starts Monday noon.\n");
    assertThat(Files.readString(memory.resolve("team/MEMORY.md")))
        .contains("- [release-train](release-train.md) — releases leave on Tuesdays");

    JsonNode found = call("memory_search", Map.of("query", "when do releases leave"));
    assertThat(text(found)).contains("team/release-train.md").contains("freeze starts Monday");

    JsonNode listed = JSON.readTree(text(call("memory_list", Map.of("prefix", "team/"))));
    assertThat(listed.findValuesAsText("path"))
        .containsExactlyInAnyOrder("team/release-train.md", "team/testing-policy.md");
    // The server's author, never the one a frontmatter line claims.
    assertThat(listed.findValuesAsText("author")).containsExactly("alice");
    assertThat(listed.findValuesAsText("written")).containsExactly("2026-11-28T09:15:00Z");

    JsonNode read = call("memory_read", Map.of("path", "team/testing-policy.md"));
    assertThat(JSON.readTree(text(read)).path("content").asText())
        .startsWith(
            "<teammate-notes source=\"team/testing-policy.md\" author=\"alice\""
                + " written=\"2026-11-28 09:15 UTC\">\n")
        .contains("never mocks")
        .endsWith("</teammate-notes>");
  }

  @Test
  void aSaveHoldingATokenIsRefusedInASentenceAndWritesNothing() throws Exception {
    initialize("2025-06-18");
    String token = new SecretTokens(28).githubPat();

    JsonNode refused =
        call(
            "memory_save",
            Map.of(
                "scope",
                "team",
                "name",
                "deploy-token",
                "type",
                "reference",
                "description",
                "how to deploy",
                "body",
                "Deploy with " + token));

    assertThat(refused.path("isError").asBoolean()).isTrue();
    assertThat(text(refused))
        .startsWith("not saved: it holds what looks like a secret (github-pat")
        .doesNotContain(token);
    assertThat(memory.resolve("team/deploy-token.md")).doesNotExist();
  }

  @Test
  void nothingOutsideTheMemoryFolderIsReached() throws Exception {
    initialize("2025-06-18");
    Files.writeString(home.resolve("secret.md"), "SECRET-CONTENT");

    for (String path : List.of("../secret.md", "/etc/passwd", "team/../../secret.md")) {
      JsonNode result = call("memory_read", Map.of("path", path));
      assertThat(result.path("isError").asBoolean()).as(path).isTrue();
      assertThat(text(result)).doesNotContain("SECRET-CONTENT");
    }
  }

  @Test
  void aTeamMemoryIsNotDeletedAndAPrivateOneOnlyWhenConfirmedWithACopyKept() throws Exception {
    initialize("2025-06-18");

    JsonNode team =
        call("memory_delete", Map.of("path", "team/testing-policy.md", "confirm", true));
    assertThat(team.path("isError").asBoolean()).isTrue();
    assertThat(text(team)).contains("is a team memory").contains("a person deletes it");
    assertThat(memory.resolve("team/testing-policy.md")).exists();

    call(
        "memory_save",
        Map.of(
            "scope",
            "private",
            "name",
            "tabs",
            "type",
            "user",
            "description",
            "prefers tabs",
            "body",
            "The user prefers tabs."));
    JsonNode unconfirmed = call("memory_delete", Map.of("path", "tabs.md"));
    assertThat(memory.resolve("tabs.md")).exists();
    assertThat(text(unconfirmed)).contains("confirm: true");

    JsonNode deleted = call("memory_delete", Map.of("path", "tabs.md", "confirm", true));
    assertThat(deleted.path("isError").asBoolean()).isFalse();
    assertThat(memory.resolve("tabs.md")).doesNotExist();
    assertThat(Path.of(JSON.readTree(text(deleted)).path("copyKeptAt").asText()))
        .hasContent(
            "---\nname: tabs\ndescription: \"prefers tabs\"\ntype: user\nmetadata:\n  type: user\n"
                + "---\n\nThe user prefers tabs.\n");
    assertThat(Files.readString(memory.resolve("MEMORY.md"))).doesNotContain("tabs.md");
  }

  @Test
  void theTeamIndexIsAResource() throws Exception {
    initialize("2025-06-18");

    JsonNode listed = request("resources/list", Map.of()).path("result").path("resources");
    assertThat(listed.findValuesAsText("uri"))
        .containsExactly(McpTools.TEAM_INDEX_URI, McpTools.PRIVATE_INDEX_URI);
    JsonNode read =
        request("resources/read", Map.of("uri", McpTools.TEAM_INDEX_URI)).path("result");
    assertThat(read.path("contents").get(0).path("text").asText()).contains("testing-policy.md");
  }
}
