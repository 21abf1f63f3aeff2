package dev.teammemory.daemon.compact;

import static dev.teammemory.daemon.compact.HandMadeTranscript.words;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.ModelSettings;
import dev.teammemory.daemon.model.RetryPolicy;
import dev.teammemory.daemon.testing.ScriptedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Levels 2 and 3 against a server that speaks the Messages API. */
class ModelCompactionTest {

  private static final String SUMMARY_ANSWER =
      "<analysis>\nThe user wants the race fixed; private musings here.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   Fix the refresh race.\n</summary>";

  @TempDir Path home;

  private final Clock clock = Clock.fixed(Instant.parse("2026-03-02T12:00:00Z"), ZoneOffset.UTC);
  private ClaudeLayout layout;
  private Path transcriptFile;
  private final HandMadeTranscript transcript = new HandMadeTranscript("session-1", "/work/app");

  @BeforeEach
  void conversation() throws IOException {
    layout = new ClaudeLayout(home.resolve(".claude"), home.resolve("state/tmem"));
    transcriptFile = home.resolve("session-1.jsonl");
    transcript.user("fix the refresh race");
    for (int i = 0; i < 10; i++) {
      transcript.assistant(words("step" + i, 500));
      transcript.user("round " + i + " feedback");
    }
    transcript.write(transcriptFile);
  }

  private static MockResponse answer(String text) {
    String body =
        HandMadeTranscript.JSON
            .createObjectNode()
            .put("id", "msg_summary")
            .put("type", "message")
            .put("role", "assistant")
            .put("stop_reason", "end_turn")
            .set(
                "content",
                HandMadeTranscript.JSON
                    .createArrayNode()
                    .add(
                        HandMadeTranscript.JSON
                            .createObjectNode()
                            .put("type", "text")
                            .put("text", text)))
            .toString();
    return ScriptedServer.json(200, body);
  }

  private static MockResponse error(int status, String type, String message) {
    return ScriptedServer.json(
        status,
        "{\"type\":\"error\",\"error\":{\"type\":\""
            + type
            + "\",\"message\":\""
            + message
            + "\"}}");
  }

  private static MockResponse promptTooLong() {
    return error(
        400, "invalid_request_error", "prompt is too long: 203000 tokens > 200000 maximum");
  }

  private Compaction compaction(ScriptedServer server) {
    ModelSettings settings =
        ModelSettings.fromEnvironment(
                Map.of("ANTHROPIC_API_KEY", "sk-test-key", "ANTHROPIC_BASE_URL", server.url()))
            .withRetryPolicy(new RetryPolicy(0, Duration.ZERO, Duration.ZERO, Duration.ZERO));
    return new Compaction(layout, new AnthropicLanguageModel(settings), clock);
  }

  private static JsonNode body(RecordedRequest request) {
    return HandMadeTranscript.parse(request.getBody().utf8());
  }

  private CompactionRequest request(boolean automatic) {
    return new CompactionRequest(
        transcriptFile,
        Optional.empty(),
        Optional.empty(),
        new CompactionLimits(40_000, 20_000),
        automatic);
  }

  @Test
  void theModelWritesTheSummaryWithoutToolsAndItsScratchpadIsStripped() throws IOException {
    try (ScriptedServer server = new ScriptedServer(request -> answer(SUMMARY_ANSWER))) {
      CompactionOutcome outcome = compaction(server).compact(request(false));

      CompactionOutcome.Compacted compacted = (CompactionOutcome.Compacted) outcome;
      assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SUMMARY);
      assertThat(compacted.writer()).isEqualTo("model claude-sonnet-4-5");
      String summary =
          HandMadeTranscript.parse(compacted.lines().get(1))
              .path("message")
              .path("content")
              .asText();
      assertThat(summary)
          .contains("Summary:\n1. Primary Request and Intent:\n   Fix the refresh race.")
          .doesNotContain("<analysis>", "private musings");
      JsonNode sent = body(server.requests().getFirst());
      assertThat(sent.has("tools")).isFalse();
      assertThat(sent.path("max_tokens").asInt()).isEqualTo(20_000);
      String prompt = sent.path("messages").get(0).path("content").get(0).path("text").asText();
      assertThat(prompt)
          .contains(
              "[user] fix the refresh race", "[user] round 9 feedback", "9. Optional Next Step");
    }
  }

  @Test
  void aPromptTooLongAnswerDropsTheOldestRoundsByTheReportedGapAndRetriesWithTheMarker()
      throws IOException {
    AtomicInteger calls = new AtomicInteger();
    try (ScriptedServer server =
        new ScriptedServer(
            request -> calls.incrementAndGet() == 1 ? promptTooLong() : answer(SUMMARY_ANSWER))) {
      CompactionOutcome.Compacted compacted =
          (CompactionOutcome.Compacted) compaction(server).compact(request(false));

      assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.TRUNCATED_SUMMARY);
      assertThat(compacted.promptTooLongRetries()).isEqualTo(1);
      List<RecordedRequest> requests = server.requests();
      assertThat(requests).hasSize(2);
      String retry =
          body(requests.get(1))
              .path("messages")
              .get(0)
              .path("content")
              .get(0)
              .path("text")
              .asText();
      // A 3,000-token gap: the opening request, then rounds of ~505 tokens until 3,000 are covered.
      assertThat(retry)
          .startsWith(SummaryPrompt.PREAMBLE + "<conversation>\n[user] " + ApiRounds.RETRY_MARKER);
      assertThat(retry)
          .doesNotContain("fix the refresh race", "round 5 feedback")
          .contains("round 6 feedback", "round 9 feedback");
    }
  }

  @Test
  void compactionFailsAfterThreePromptTooLongRetries() throws IOException {
    try (ScriptedServer server =
        new ScriptedServer(
            request -> error(413, "request_too_large", "Request exceeds the maximum size"))) {
      CompactionOutcome outcome = compaction(server).compact(request(false));

      assertThat(outcome).isInstanceOf(CompactionOutcome.Failed.class);
      assertThat(((CompactionOutcome.Failed) outcome).reason())
          .isEqualTo(
              "level 2 (model summary): the conversation is still too long to summarize after dropping its oldest rounds 3 times");
      assertThat(server.requests()).hasSize(4);
      // Without a reported gap a fifth of the rounds goes each time: 11 rounds, then 9, 8 and 7.
      String last =
          body(server.requests().get(3))
              .path("messages")
              .get(0)
              .path("content")
              .get(0)
              .path("text")
              .asText();
      assertThat(last)
          .doesNotContain("round 2 feedback")
          .contains("round 3 feedback", "round 9 feedback");
    }
  }

  @Test
  void theCircuitBreakerStopsAutomaticCompactionAfterThreeFailuresInARowAndASuccessResetsIt()
      throws IOException {
    transcript.assistant("the latest answer", 190_000);
    transcript.write(transcriptFile);
    AtomicInteger calls = new AtomicInteger();
    try (ScriptedServer server =
        new ScriptedServer(
            request ->
                calls.incrementAndGet() <= 3
                    ? error(400, "invalid_request_error", "messages: bad request")
                    : answer(SUMMARY_ANSWER))) {
      Compaction compaction = compaction(server);
      CompactionRequest automatic =
          new CompactionRequest(
              transcriptFile, Optional.empty(), Optional.empty(), CompactionLimits.DEFAULTS, true);

      for (int attempt = 1; attempt <= 3; attempt++) {
        CompactionOutcome outcome = compaction.compact(automatic);
        assertThat(outcome).isInstanceOf(CompactionOutcome.Failed.class);
        assertThat(((CompactionOutcome.Failed) outcome).consecutiveFailures()).isEqualTo(attempt);
      }
      assertThat(compaction.compact(automatic)).isEqualTo(new CompactionOutcome.CircuitOpen(3));
      assertThat(server.requests()).hasSize(3);

      assertThat(compaction.compact(request(false)))
          .isInstanceOf(CompactionOutcome.Compacted.class);
      assertThat(compaction.compact(automatic)).isInstanceOf(CompactionOutcome.Compacted.class);
    }
  }

  @Test
  void theApiKeyAndThePromptNeverAppearInAFailureReason() throws IOException {
    try (ScriptedServer server =
        new ScriptedServer(request -> error(401, "authentication_error", "invalid x-api-key"))) {
      CompactionOutcome.Failed failed =
          (CompactionOutcome.Failed) compaction(server).compact(request(false));

      assertThat(failed.reason())
          .isEqualTo(
              "level 2 (model summary): HTTP 401 authentication_error: invalid x-api-key (after 1 attempt)");
      assertThat(failed.reason() + failed.fallbacks())
          .doesNotContain("sk-test-key", "fix the refresh race");
      assertThat(Files.readString(transcriptFile)).isEqualTo(transcript.jsonl());
    }
  }
}
