package dev.teammemory.daemon.recall;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelSettings;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecallTest {

  private static final Instant NOW = Instant.parse("2025-06-10T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @TempDir Path memory;
  private final Recall offline = new Recall(new OfflineLanguageModel("test"), CLOCK);

  private Path topic(String name, String description, String body, Duration age)
      throws IOException {
    Path file = memory.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "---\nname: " + name + "\ndescription: " + description + "\ntype: project\n---\n" + body);
    Files.setLastModifiedTime(file, FileTime.from(NOW.minus(age)));
    return file;
  }

  @Test
  void surfacesTheRelevantMemoryWithItsHeader() throws IOException {
    Path auth =
        topic(
            "auth.md",
            "The JWT auth rewrite is driven by compliance",
            "Legal asked for it.\n",
            Duration.ofHours(3));
    topic("deploy.md", "How to deploy to staging", "make deploy\n", Duration.ofHours(3));

    RecallResult result =
        offline.recall(memory, "fix the JWT auth refresh", List.of(), SurfacedMemories.NONE);

    assertThat(result.memories())
        .singleElement()
        .satisfies(
            recalled -> {
              assertThat(recalled.file()).isEqualTo(auth.toAbsolutePath());
              assertThat(recalled.header())
                  .isEqualTo("Memory (saved today): " + auth.toAbsolutePath() + ":");
              assertThat(recalled.content()).isEqualTo(Files.readString(auth).stripTrailing());
              assertThat(recalled.truncated()).isFalse();
            });
    assertThat(result.candidates()).isEqualTo(2);
    assertThat(result.rankedBy()).isEqualTo("lexical ranking (offline (test))");
  }

  @Test
  void memoriesOlderThanADayCarryTheFreshnessNote() throws IOException {
    Path old = topic("auth.md", "JWT auth rewrite context", "x\n", Duration.ofDays(3).plusHours(2));
    Path yesterday =
        topic("auth_yesterday.md", "JWT auth token notes", "y\n", Duration.ofHours(30));

    RecallResult result = offline.recall(memory, "JWT auth", List.of(), SurfacedMemories.NONE);

    assertThat(result.memories())
        .extracting(RecalledMemory::header)
        .containsExactlyInAnyOrder(
            "This memory is 3 days old. Memories are point-in-time observations, not live state — claims about code behavior or"
                + " file:line citations may be outdated. Verify against current code before asserting as fact.\n\nMemory: "
                + old.toAbsolutePath()
                + ":",
            "Memory (saved yesterday): " + yesterday.toAbsolutePath() + ":");
  }

  @Test
  void longMemoriesAreCutAtTwoHundredLinesWithTheNote() throws IOException {
    String body =
        IntStream.rangeClosed(1, 250).mapToObj(i -> "l" + i).collect(Collectors.joining("\n"))
            + "\n";
    Path file = topic("long.md", "Release checklist", body, Duration.ZERO);

    RecalledMemory recalled =
        offline
            .recall(memory, "release checklist", List.of(), SurfacedMemories.NONE)
            .memories()
            .getFirst();

    List<String> lines = Files.readString(file).lines().limit(200).toList();
    assertThat(recalled.content())
        .isEqualTo(
            String.join("\n", lines)
                + "\n\n> This memory file was truncated (first 200 lines). Use the Read tool to view the complete file at: "
                + file.toAbsolutePath());
    assertThat(recalled.truncated()).isTrue();
  }

  @Test
  void wideMemoriesAreCutAtFourKilobytesOnALineBoundary() throws IOException {
    String body =
        IntStream.rangeClosed(1, 100)
            .mapToObj(i -> "line " + i + " " + "x".repeat(90))
            .collect(Collectors.joining("\n"));
    Path file = topic("wide.md", "Release checklist", body, Duration.ZERO);

    RecalledMemory recalled =
        offline
            .recall(memory, "release checklist", List.of(), SurfacedMemories.NONE)
            .memories()
            .getFirst();

    String kept =
        recalled
            .content()
            .substring(0, recalled.content().indexOf("\n\n> This memory file was truncated"));
    assertThat(kept.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Recall.MAX_BYTES);
    assertThat(Files.readString(file)).startsWith(kept + "\n");
    assertThat(recalled.content())
        .endsWith(
            "(4096 byte limit). Use the Read tool to view the complete file at: "
                + file.toAbsolutePath());
  }

  @Test
  void atMostFiveAreSurfaced() throws IOException {
    for (int i = 0; i < 8; i++) {
      topic("release_" + i + ".md", "Release checklist part " + i, "x\n", Duration.ofMinutes(i));
    }

    assertThat(
            offline
                .recall(memory, "release checklist", List.of(), SurfacedMemories.NONE)
                .memories())
        .hasSize(5);
  }

  @Test
  void memoriesSurfacedBeforeInTheSessionAreNotOfferedAgain() throws IOException {
    Path first = topic("release_a.md", "Release checklist", "x\n", Duration.ZERO);
    Path second = topic("release_b.md", "Release checklist for mobile", "y\n", Duration.ZERO);

    RecallResult result =
        offline.recall(
            memory,
            "release checklist",
            List.of(),
            new SurfacedMemories(Set.of(first.toAbsolutePath()), 10));

    assertThat(result.memories())
        .extracting(RecalledMemory::file)
        .containsExactly(second.toAbsolutePath());
    assertThat(result.candidates()).isEqualTo(1);
    assertThat(result.sessionBytes()).isEqualTo(10 + result.memories().getFirst().bytes());
  }

  @Test
  void theSessionBudgetStopsRecall() throws IOException {
    topic("release.md", "Release checklist", "x".repeat(3_000) + "\n", Duration.ZERO);

    RecallResult spent =
        offline.recall(
            memory,
            "release checklist",
            List.of(),
            new SurfacedMemories(Set.of(), Recall.MAX_SESSION_BYTES));
    RecallResult nearlySpent =
        offline.recall(
            memory,
            "release checklist",
            List.of(),
            new SurfacedMemories(Set.of(), Recall.MAX_SESSION_BYTES - 1_000));

    assertThat(spent.memories()).isEmpty();
    assertThat(spent.budgetExhausted()).isTrue();
    assertThat(nearlySpent.memories()).isEmpty();
    assertThat(nearlySpent.budgetExhausted()).isTrue();
    assertThat(nearlySpent.sessionBytes()).isEqualTo(Recall.MAX_SESSION_BYTES - 1_000);
  }

  @Test
  void withAModelTheModelPicksAsTheReferenceSelectorDoes() throws Exception {
    topic("a.md", "Alpha", "a\n", Duration.ofMinutes(2));
    topic("b.md", "Beta", "b\n", Duration.ofMinutes(1));
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(toolAnswer("{\"selected_memories\":[\"b.md\",\"invented.md\",\"a.md\"]}"));
      Recall recall = new Recall(model(server), CLOCK);

      RecallResult result =
          recall.recall(
              memory, "what about alpha and beta", List.of("Bash", "Edit"), SurfacedMemories.NONE);

      assertThat(result.memories())
          .extracting(RecalledMemory::filename)
          .containsExactly("b.md", "a.md");
      assertThat(result.rankedBy()).isEqualTo("model claude-recall");
      JsonNode body = new ObjectMapper().readTree(server.takeRequest().getBody().utf8());
      assertThat(body.path("model").asText()).isEqualTo("claude-recall");
      assertThat(body.path("max_tokens").asInt()).isEqualTo(256);
      assertThat(body.path("system").asText()).isEqualTo(ModelSelection.SYSTEM_PROMPT);
      assertThat(body.path("messages").get(0).path("content").get(0).path("text").asText())
          .isEqualTo(
              "Query: what about alpha and beta\n\nAvailable memories:\n"
                  + "- [project] b.md (2025-06-10T11:59:00.000Z): Beta\n"
                  + "- [project] a.md (2025-06-10T11:58:00.000Z): Alpha\n\n"
                  + "Recently used tools: Bash, Edit");
      assertThat(body.path("tool_choice").path("name").asText()).isEqualTo("select_memories");
      assertThat(body.path("tools").get(0).path("input_schema").path("required").get(0).asText())
          .isEqualTo("selected_memories");
    }
  }

  @Test
  void whenTheModelFailsRecallFallsBackToLexicalRanking() throws Exception {
    topic("auth.md", "JWT auth rewrite context", "x\n", Duration.ZERO);
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(
          new MockResponse.Builder()
              .code(401)
              .body(
                  "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}")
              .build());

      RecallResult result =
          new Recall(model(server), CLOCK)
              .recall(memory, "JWT auth", List.of(), SurfacedMemories.NONE);

      assertThat(result.memories()).extracting(RecalledMemory::filename).containsExactly("auth.md");
      assertThat(result.rankedBy())
          .isEqualTo(
              "lexical ranking (the model failed: HTTP 401 authentication_error: invalid x-api-key (after 1 attempt))");
    }
  }

  @Test
  void aModelSlowerThanTheDeadlineLeavesThePickToLexicalRanking() throws Exception {
    topic("auth.md", "JWT auth rewrite context", "x\n", Duration.ZERO);
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(
          new MockResponse.Builder()
              .code(200)
              .headersDelay(5, TimeUnit.SECONDS)
              .body("{\"selected_memories\":[]}")
              .build());

      RecallResult result =
          new Recall(model(server), CLOCK, Optional.of(Duration.ofMillis(200)))
              .recall(memory, "JWT auth", List.of(), SurfacedMemories.NONE);

      assertThat(result.memories()).extracting(RecalledMemory::filename).containsExactly("auth.md");
      assertThat(result.rankedBy())
          .isEqualTo("lexical ranking (the model took longer than 200 ms)");
    }
  }

  @Test
  void aModelThatPicksNothingSurfacesNothing() throws Exception {
    topic("auth.md", "JWT auth rewrite context", "x\n", Duration.ZERO);
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      server.enqueue(toolAnswer("{\"selected_memories\":[]}"));

      assertThat(
              new Recall(model(server), CLOCK)
                  .recall(memory, "JWT auth", List.of(), SurfacedMemories.NONE)
                  .memories())
          .isEmpty();
    }
  }

  private static MockResponse toolAnswer(String input) {
    return new MockResponse.Builder()
        .code(200)
        .body(
            "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"select_memories\",\"input\":"
                + input
                + "}],\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":50,\"output_tokens\":10}}")
        .build();
  }

  private static AnthropicLanguageModel model(MockWebServer server) {
    return new AnthropicLanguageModel(
        ModelSettings.fromEnvironment(
            Map.of(
                "ANTHROPIC_API_KEY",
                "sk-test",
                "ANTHROPIC_BASE_URL",
                server.url("/").toString(),
                "TMEM_RECALL_MODEL",
                "claude-recall")));
  }
}
