package dev.teammemory.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.secrets.SecretTokens;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.ProjectRegistry;
import dev.teammemory.daemon.testing.Conditions;
import dev.teammemory.daemon.testing.OfflineMachine;
import dev.teammemory.daemon.testing.TmemCommand;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official TypeScript MCP client ({@code @modelcontextprotocol/sdk}, the version pinned in
 * {@code src/test/mcp-client/package-lock.json}, installed into {@code target/} with {@code npm
 * ci}) lists and calls every tool of the real tmem. Without npm on this machine the test is skipped
 * with one line; on CI ({@code CI} set) a missing npm fails it.
 */
class McpClientIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SOURCE = Path.of("src/test/mcp-client");
  private static final Path INSTALLED = Path.of("target/mcp-client");

  @TempDir Path home;

  private Path memory;
  private Path project;
  private Map<String, String> environment;

  @BeforeAll
  static void installTheClient() throws Exception {
    boolean npm = run(List.of("npm", "--version"), Path.of("."), 60) == 0;
    if (!npm && System.getenv("CI") == null) {
      System.err.println("McpClientIT skipped: npm is not installed (CI runs it)");
    }
    Assumptions.assumeTrue(npm || System.getenv("CI") != null, "npm is not installed");
    assertThat(npm).as("npm on CI").isTrue();
    Files.createDirectories(INSTALLED);
    for (String file : List.of("package.json", "package-lock.json", "client.mjs")) {
      Files.copy(
          SOURCE.resolve(file),
          INSTALLED.resolve(file),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    if (!Files.isDirectory(INSTALLED.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      assertThat(
              run(
                  List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"),
                  INSTALLED,
                  300))
          .as("npm ci in " + INSTALLED)
          .isZero();
    }
  }

  @BeforeEach
  void aProjectWithTeamMemory() throws IOException {
    memory = Files.createDirectories(home.resolve("memory"));
    OfflineMachine.teamTestingPolicy(memory);
    project = Files.createDirectories(home.resolve("shop"));
    environment = OfflineMachine.variables(home, memory);
    environment.put("PATH", System.getenv("PATH"));
  }

  /** Every tool, called the way an agent would; the token-holding save is refused. */
  private List<Map<String, Object>> everyTool(Map<String, Object> project) {
    List<Map<String, Object>> calls = new ArrayList<>();
    calls.add(call("memory_search", project, "query", "do integration tests hit a database"));
    calls.add(call("memory_list", project, "prefix", "team/"));
    calls.add(call("memory_read", project, "path", "team/testing-policy.md"));
    calls.add(
        call(
            "memory_save",
            project,
            "scope",
            "team",
            "name",
            "release-train",
            "type",
            "project",
            "description",
            "releases leave on Tuesdays",
            "body",
            "Releases leave on Tuesdays."));
    calls.add(
        call(
            "memory_save",
            project,
            "scope",
            "team",
            "name",
            "deploy-token",
            "type",
            "reference",
            "description",
            "how to deploy",
            "body",
            "Deploy with " + new SecretTokens(28).githubPat()));
    calls.add(
        call(
            "memory_save",
            project,
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
    calls.add(call("memory_delete", project, "path", "tabs.md", "confirm", true));
    calls.add(call("recall", project, "query", "what do the integration tests need"));
    calls.add(call("notes", project, "session", "no-such-session"));
    calls.add(call("compact", project, "transcript", home.resolve("missing.jsonl").toString()));
    return calls;
  }

  private static Map<String, Object> call(String name, Map<String, Object> base, Object... pairs) {
    Map<String, Object> arguments = new LinkedHashMap<>(base);
    for (int i = 0; i < pairs.length; i += 2) {
      arguments.put((String) pairs[i], pairs[i + 1]);
    }
    return Map.of("name", name, "arguments", arguments);
  }

  @Test
  void theOfficialClientListsAndCallsEveryToolOverStdio() throws Exception {
    ObjectNode plan = JSON.createObjectNode().put("transport", "stdio");
    plan.set("command", JSON.valueToTree(TmemCommand.of("mcp")));
    plan.put("cwd", project.toString());
    plan.set("env", JSON.valueToTree(environment));
    plan.set("calls", JSON.valueToTree(everyTool(Map.of())));

    JsonNode seen = client(plan);

    assertThat(seen.path("server").path("name").asText()).isEqualTo("tmem");
    assertEveryToolAnswered(seen);
    assertThat(seen.path("resources").findValuesAsText("uri"))
        .containsExactly(McpTools.TEAM_INDEX_URI, McpTools.PRIVATE_INDEX_URI);
    assertThat(seen.path("resources").get(0).path("text").asText()).contains("testing-policy.md");
  }

  @Test
  void theOfficialClientListsAndCallsEveryToolOverHttpAndForeignCallersAreRefused()
      throws Exception {
    Path state = OfflineMachine.stateHome(home);
    // A registered checkout: over HTTP its indexes are listed as resources.
    new ProjectRegistry(state)
        .add(new Project("acme/shop", memory.resolve("team"), Optional.of(project)));
    List<String> command = new ArrayList<>(TmemCommand.of("api", "--port", "0"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(home.resolve("api.log").toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process api = builder.start();
    try {
      Conditions.await(
          "the local API's address",
          Duration.ofSeconds(60),
          () -> Files.exists(state.resolve("api.json")));
      String url = JSON.readTree(Files.readString(state.resolve("api.json"))).path("url").asText();
      String token = Files.readString(state.resolve("api-token")).strip();
      ObjectNode plan = JSON.createObjectNode().put("transport", "http");
      plan.put("url", url + "/mcp").put("token", token);
      plan.set("calls", JSON.valueToTree(everyTool(Map.of("project", project.toString()))));

      JsonNode seen = client(plan);

      assertEveryToolAnswered(seen);
      String query = "?project=" + URLEncoder.encode(project.toString(), StandardCharsets.UTF_8);
      // The SDK lists a stateless server's resources in no particular order.
      assertThat(seen.path("resources").findValuesAsText("uri"))
          .containsExactlyInAnyOrder(
              McpTools.TEAM_INDEX_URI + query, McpTools.PRIVATE_INDEX_URI + query);
      JsonNode teamIndex = JSON.createObjectNode();
      for (JsonNode resource : seen.path("resources")) {
        if (resource.path("uri").asText().startsWith(McpTools.TEAM_INDEX_URI)) {
          teamIndex = resource;
        }
      }
      assertThat(teamIndex.path("text").asText())
          .startsWith("<teammate-notes source=\"team/MEMORY.md\" author=\"unknown\"")
          .contains("testing-policy.md");
      for (JsonNode tool : seen.path("tools")) {
        assertThat(tool.path("required").toString()).as(tool.toString()).contains("\"project\"");
      }
      HttpClient http = HttpClient.newHttpClient();
      String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
      HttpResponse<String> withoutToken =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "/mcp"))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(ping))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(withoutToken.statusCode()).isEqualTo(401);
      HttpResponse<String> fromAWebPage =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "/mcp"))
                  .header("Content-Type", "application/json")
                  .header("Authorization", "Bearer " + token)
                  .header("Origin", "https://evil.example")
                  .POST(HttpRequest.BodyPublishers.ofString(ping))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(fromAWebPage.statusCode()).isEqualTo(403);
    } finally {
      api.destroy();
      api.waitFor(30, TimeUnit.SECONDS);
    }
  }

  static void assertEveryToolAnswered(JsonNode seen) {
    List<String> listed = new ArrayList<>();
    seen.path("tools").forEach(tool -> listed.add(tool.path("name").asText()));
    List<String> called = new ArrayList<>();
    seen.path("calls").forEach(call -> called.add(call.path("name").asText()));
    assertThat(called).containsAll(listed);
    JsonNode calls = seen.path("calls");
    assertThat(calls.get(0).path("text").asText()).contains("team/testing-policy.md");
    assertThat(calls.get(1).path("text").asText()).contains("team/testing-policy.md");
    assertThat(calls.get(2).path("text").asText()).contains("never mocks");
    assertThat(calls.get(3).path("isError").asBoolean()).as(calls.get(3).toString()).isFalse();
    assertThat(calls.get(4).path("isError").asBoolean()).isTrue();
    assertThat(calls.get(4).path("text").asText())
        .startsWith("not saved: it holds what looks like a secret");
    assertThat(calls.get(5).path("isError").asBoolean()).as(calls.get(5).toString()).isFalse();
    assertThat(calls.get(6).path("text").asText()).contains("\"deleted\":true");
    assertThat(calls.get(7).path("isError").asBoolean()).as(calls.get(7).toString()).isFalse();
    assertThat(calls.get(8).path("text").asText())
        .isEqualTo("session no-such-session has no notes yet");
    assertThat(calls.get(9).path("isError").asBoolean()).isTrue();
    for (JsonNode tool : seen.path("tools")) {
      String name = tool.path("name").asText();
      assertThat(tool.path("readOnly").asBoolean())
          .as(name)
          .isEqualTo(!name.equals("memory_save") && !name.equals("memory_delete"));
    }
  }

  JsonNode client(ObjectNode plan) throws Exception {
    Path planFile = home.resolve("plan.json");
    Files.writeString(planFile, plan.toString());
    Path out = home.resolve("client.out");
    Process client =
        new ProcessBuilder(
                "node",
                INSTALLED.resolve("client.mjs").toAbsolutePath().toString(),
                planFile.toString())
            .redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    assertThat(client.waitFor(120, TimeUnit.SECONDS)).as("the client finished").isTrue();
    assertThat(client.exitValue()).as("the client's exit code").isZero();
    return JSON.readTree(Files.readString(out, StandardCharsets.UTF_8));
  }

  private static int run(List<String> command, Path directory, int seconds) throws Exception {
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return -1;
      }
      return process.exitValue();
    } catch (IOException notInstalled) {
      return -1;
    }
  }
}
