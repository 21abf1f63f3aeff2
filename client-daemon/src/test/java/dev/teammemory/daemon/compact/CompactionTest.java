package dev.teammemory.daemon.compact;

import static dev.teammemory.daemon.compact.HandMadeTranscript.words;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.notes.NotesOutcome;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction without a model, on transcripts written to disk. */
class CompactionTest {

  static final String NOTES =
      """

      # Session Title
      _A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_
      Refresh token race in the auth module

      # Current State
      _What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._
      Adding a mutex around handleTokenRefresh() in src/auth/refresh.ts.
      """;

  @TempDir Path home;

  private final Clock clock = Clock.fixed(Instant.parse("2026-03-02T12:00:00Z"), ZoneOffset.UTC);
  private ClaudeLayout layout;
  private Path project;
  private HandMadeTranscript transcript;
  private Path transcriptFile;
  private Path notesFile;

  @BeforeEach
  void layout() throws IOException {
    layout = new ClaudeLayout(home.resolve(".claude"), home.resolve("state/tmem"));
    project = Files.createDirectories(home.resolve("app"));
    transcript = new HandMadeTranscript("session-1", project.toString());
    transcriptFile = layout.transcript(project, "session-1");
    notesFile = layout.sessionNotes(project, "session-1");
  }

  private Compaction compaction() {
    return new Compaction(layout, new OfflineLanguageModel("test"), clock);
  }

  private CompactionOutcome.Compacted compact(Optional<String> marker, CompactionLimits limits)
      throws IOException {
    transcript.write(transcriptFile);
    CompactionOutcome outcome =
        compaction()
            .compact(
                new CompactionRequest(transcriptFile, Optional.empty(), marker, limits, false));
    assertThat(outcome).isInstanceOf(CompactionOutcome.Compacted.class);
    return (CompactionOutcome.Compacted) outcome;
  }

  private void writeNotes(String notes) throws IOException {
    Files.createDirectories(notesFile.getParent());
    Files.writeString(notesFile, notes);
  }

  /** Twenty exchanges of 1,200 tokens each; returns the uuid of the answer in exchange 17. */
  private String longConversation() {
    String marker = null;
    for (int i = 0; i < 20; i++) {
      transcript.user(words("question" + i, 1_200));
      String answer = transcript.assistant(words("answer" + i, 1_200));
      if (i == 17) {
        marker = answer;
      }
    }
    return marker;
  }

  private static List<JsonNode> json(CompactionOutcome.Compacted compacted) {
    return compacted.lines().stream().map(HandMadeTranscript::parse).toList();
  }

  @Test
  void sessionNotesReplaceTheOlderMessagesAndTheRecentOnesStayAsTheAgentWroteThem()
      throws IOException {
    String marker = longConversation();
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted = compact(Optional.of(marker), CompactionLimits.DEFAULTS);

    assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SESSION_NOTES);
    assertThat(compacted.fallbacks()).isEmpty();
    List<JsonNode> lines = json(compacted);
    JsonNode boundary = lines.get(0);
    assertThat(boundary.path("type").asText()).isEqualTo("system");
    assertThat(boundary.path("subtype").asText()).isEqualTo("compact_boundary");
    assertThat(boundary.path("parentUuid").isNull()).isTrue();
    assertThat(boundary.path("logicalParentUuid").asText()).isEqualTo(transcript.lastUuid());
    assertThat(boundary.path("compactMetadata").path("trigger").asText()).isEqualTo("manual");
    assertThat(boundary.path("sessionId").asText()).isEqualTo("session-1");
    JsonNode summary = lines.get(1);
    assertThat(summary.path("isCompactSummary").asBoolean()).isTrue();
    assertThat(summary.path("parentUuid").asText()).isEqualTo(boundary.path("uuid").asText());
    assertThat(summary.path("message").path("content").asText())
        .startsWith("This conversation continues an earlier one that ran out of context.")
        .contains(
            "Adding a mutex around handleTokenRefresh()",
            "The most recent messages follow unchanged.",
            transcriptFile.toString());
    // Typed prompts are plain strings, which the padded estimate counts as nothing: 13 messages
    // (7 answers of ~1,600) make the 10,000.
    assertThat(compacted.keptMessages()).isEqualTo(13);
    List<String> original = transcript.jsonl().lines().toList();
    for (int i = 0; i < 13; i++) {
      JsonNode kept = lines.get(2 + i);
      JsonNode before = HandMadeTranscript.parse(original.get(original.size() - 13 + i));
      assertThat(kept.path("message")).isEqualTo(before.path("message"));
      assertThat(kept.path("uuid")).isEqualTo(before.path("uuid"));
      assertThat(kept.path("requestId")).isEqualTo(before.path("requestId"));
      assertThat(kept.path("parentUuid").asText())
          .isEqualTo(lines.get(1 + i).path("uuid").asText());
    }
    Transcript reread = Transcript.parse(String.join("\n", compacted.lines()));
    assertThat(reread.conversation()).hasSize(15);
    assertThat(compacted.postTokens()).isLessThan(compacted.preTokens());
  }

  @Test
  void theMarkerDefaultsToTheLastSummarizedMessageTheNotesUpdateRecorded() throws IOException {
    longConversation();
    transcript.write(transcriptFile);
    NotesOutcome updated =
        new SessionNotes(layout, new OfflineLanguageModel("test"), clock)
            .update(transcriptFile, notesFile, true);
    assertThat(updated).isInstanceOf(NotesOutcome.Updated.class);
    assertThat(((NotesOutcome.Updated) updated).lastSummarizedMessage())
        .contains(transcript.lastUuid());

    CompactionOutcome.Compacted compacted = compact(Optional.empty(), CompactionLimits.DEFAULTS);

    assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SESSION_NOTES);
    // Everything is summarized, so the window grows back from the end to the minimums.
    assertThat(compacted.keptMessages()).isEqualTo(13);
  }

  @Test
  void aKeptToolResultNeverLosesItsToolUseAcrossTheWindowEdge() throws IOException {
    transcript.user("read the build file");
    String response = transcript.newResponseId();
    String call =
        transcript.toolCall(
            response,
            "toolu_1",
            "Read",
            Map.of("file_path", project.resolve("pom.xml").toString()));
    transcript.toolResult("toolu_1", words("xml", 11_000), false);
    for (int i = 0; i < 5; i++) {
      transcript.assistant("observation " + i);
    }
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted = compact(Optional.of(call), CompactionLimits.DEFAULTS);

    assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SESSION_NOTES);
    List<JsonNode> lines = json(compacted);
    assertThat(lines.get(2).path("uuid").asText()).isEqualTo(call);
    assertThat(lines.get(3).path("message").path("content").get(0).path("tool_use_id").asText())
        .isEqualTo("toolu_1");
  }

  @Test
  void missingNotesFallBackToTheFullSummary() throws IOException {
    String marker = longConversation();

    CompactionOutcome.Compacted compacted = compact(Optional.of(marker), CompactionLimits.DEFAULTS);

    assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SUMMARY);
    assertThat(compacted.fallbacks())
        .containsExactly("level 1 (session notes): there are no session notes at " + notesFile);
    assertThat(compacted.keptMessages()).isZero();
  }

  @Test
  void notesThatAreStillTheTemplateFallBackToTheFullSummary() throws IOException {
    String marker = longConversation();
    writeNotes(
        NOTES
            .replace("Refresh token race in the auth module\n", "")
            .replace("Adding a mutex around handleTokenRefresh() in src/auth/refresh.ts.\n", ""));

    CompactionOutcome.Compacted compacted = compact(Optional.of(marker), CompactionLimits.DEFAULTS);

    assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SUMMARY);
    assertThat(compacted.fallbacks())
        .containsExactly(
            "level 1 (session notes): the session notes at "
                + notesFile
                + " are still the empty template");
  }

  @Test
  void aMarkerThatIsNotInTheConversationFallsBack() throws IOException {
    longConversation();
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted =
        compact(Optional.of("u-999"), CompactionLimits.DEFAULTS);

    assertThat(compacted.fallbacks())
        .containsExactly(
            "level 1 (session notes): the last summarized message u-999 is not in the conversation since the last compaction");
  }

  @Test
  void aResultStillOverTheThresholdFallsBackToTheFullSummary() throws IOException {
    String marker = longConversation();
    writeNotes(NOTES);

    // A 43,000-token window compacts at 10,000 tokens; the 9 kept messages alone are ~10,800.
    CompactionOutcome.Compacted compacted =
        compact(Optional.of(marker), new CompactionLimits(43_000, 20_000));

    assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SUMMARY);
    assertThat(compacted.fallbacks().getFirst())
        .startsWith("level 1 (session notes): the compacted conversation would still be ~")
        .endsWith("not below the threshold of 10000");
  }

  @Test
  void aResumedSessionWithoutAMarkerKeepsEveryMessageButUsesTheNotes() throws IOException {
    transcript.user("continue with the refresh race");
    transcript.assistant("Picking up where we left off.");
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted = compact(Optional.empty(), CompactionLimits.DEFAULTS);

    assertThat(compacted.level()).isEqualTo(CompactionOutcome.Level.SESSION_NOTES);
    assertThat(compacted.keptMessages()).isEqualTo(2);
    assertThat(json(compacted).get(1).path("message").path("content").asText())
        .contains("Adding a mutex");
  }

  @Test
  void theWindowNeverReachesBehindAnEarlierCompactBoundary() throws IOException {
    for (int i = 0; i < 10; i++) {
      transcript.user(words("old" + i, 1_200));
    }
    transcript.compactBoundary();
    transcript.user("after the boundary");
    String marker = transcript.assistant("ok");
    transcript.user("one more");
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted = compact(Optional.of(marker), CompactionLimits.DEFAULTS);

    List<String> uuids = json(compacted).stream().map(line -> line.path("uuid").asText()).toList();
    assertThat(uuids).doesNotContain("u-001", "u-005", "u-010");
    assertThat(compacted.keptMessages()).isEqualTo(4);
  }

  @Test
  void theOfflineSummaryHasTheNineSectionsAndQuotesTheUserVerbatim() throws IOException {
    transcript.user(
        "Please fix the refresh race in src/auth/refresh.ts, and don't use setTimeout.");
    transcript.toolRound(
        "toolu_1",
        "Read",
        Map.of("file_path", project.resolve("src/auth/refresh.ts").toString()),
        "export function handleTokenRefresh() {}");
    transcript.toolCall(
        transcript.newResponseId(), "toolu_2", "Bash", Map.of("command", "npm test"));
    transcript.toolResult("toolu_2", "FAIL test/auth.test.ts\nexpected 1 received 2", true);
    transcript.assistant("The test fails because two refreshes run at once.");
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted =
        compact(Optional.of("u-404"), CompactionLimits.DEFAULTS);

    String summary = json(compacted).get(1).path("message").path("content").asText();
    assertThat(summary)
        .contains(
            "Summary:\n1. Primary Request and Intent:",
            "\n2. Key Technical Concepts:",
            "\n3. Files and Code Sections:",
            "\n4. Errors and fixes:",
            "\n5. Problem Solving:",
            "\n6. All user messages:",
            "\n7. Pending Tasks:",
            "\n8. Current Work:",
            "\n9. Optional Next Step:")
        .contains(
            "\"Please fix the refresh race in src/auth/refresh.ts, and don't use setTimeout.\"")
        .contains(project.resolve("src/auth/refresh.ts") + " (read)")
        .contains("Bash failed: FAIL test/auth.test.ts")
        .contains("Adding a mutex around handleTokenRefresh()");
    assertThat(compacted.writer()).startsWith("offline summary");
  }

  @Test
  void recentlyReadFilesAreReadAgainUnlessAKeptMessageStillShowsThem() throws IOException {
    for (int i = 1; i <= 7; i++) {
      Files.writeString(project.resolve("file" + i + ".txt"), "content of file " + i + "\n");
      transcript.toolRound(
          "toolu_" + i, "Read", Map.of("file_path", "file" + i + ".txt"), "content of file " + i);
    }
    Files.delete(project.resolve("file6.txt"));
    Files.writeString(project.resolve("big.txt"), (words("big", 100) + "\n").repeat(80));
    transcript.toolRound(
        "toolu_big", "Read", Map.of("file_path", project.resolve("big.txt").toString()), "big");
    transcript.assistant(words("wrap", 11_000));
    String marker = transcript.user("thanks");
    for (int i = 0; i < 5; i++) {
      transcript.assistant("closing note " + i);
    }
    transcript.toolRound(
        "toolu_again",
        "Read",
        Map.of("file_path", project.resolve("file7.txt").toString()),
        "content of file 7");
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted = compact(Optional.of(marker), CompactionLimits.DEFAULTS);

    // file7 is still visible in a kept message; the five most recent others are big, 6, 5, 4 and
    // 3, and file6 is gone. big.txt (~8,000 tokens) is too large and only named.
    assertThat(compacted.restoredFiles())
        .containsExactly(
            project.resolve("big.txt"),
            project.resolve("file5.txt"),
            project.resolve("file4.txt"),
            project.resolve("file3.txt"));
    List<JsonNode> lines = json(compacted);
    JsonNode big =
        lines.stream()
            .filter(line -> line.path("isMeta").asBoolean() && line.toString().contains("big.txt"))
            .findFirst()
            .orElseThrow();
    assertThat(big.path("message").path("content").asText())
        .isEqualTo(
            "<system-reminder>\n"
                + project.resolve("big.txt")
                + " was read before this conversation was compacted, but it is too large to give"
                + " back here. Read it again with the Read tool if you need it.\n</system-reminder>");
  }

  @Test
  void imagesInKeptMessagesStayAsTheAgentWroteThem() throws IOException {
    String marker = transcript.user("start");
    transcript.userWithImage("what is wrong in this screenshot?");
    transcript.toolCall(transcript.newResponseId(), "toolu_shot", "Screenshot", Map.of());
    transcript.toolResultWithImage("toolu_shot");
    transcript.assistant("The button is misaligned.");
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted = compact(Optional.of(marker), CompactionLimits.DEFAULTS);

    String output = String.join("\n", compacted.lines());
    List<String> original = transcript.jsonl().lines().toList();
    // Too few tokens follow the marker, so the window reaches back over it: all five are kept.
    assertThat(compacted.keptMessages()).isEqualTo(5);
    assertThat(compacted.lines().get(3)).contains("\"type\":\"image\"", "iVBORw0KGgo=");
    assertThat(HandMadeTranscript.parse(compacted.lines().get(5)).path("message"))
        .isEqualTo(HandMadeTranscript.parse(original.get(3)).path("message"));
    assertThat(output).doesNotContain("[image]");
  }

  @Test
  void theSessionTitleAndTagsAreWrittenAgainAtTheEnd() throws IOException {
    transcript.user("start");
    transcript.customTitle("old title");
    transcript.customTitle("auth refresh race");
    transcript.tag("auth");
    String marker = transcript.assistant("ok");
    transcript.user("go on");
    writeNotes(NOTES);

    CompactionOutcome.Compacted compacted = compact(Optional.of(marker), CompactionLimits.DEFAULTS);

    List<JsonNode> lines = json(compacted);
    assertThat(lines.get(lines.size() - 2).path("customTitle").asText())
        .isEqualTo("auth refresh race");
    assertThat(lines.getLast().path("tag").asText()).isEqualTo("auth");
    assertThat(lines.stream().filter(line -> line.path("type").asText().equals("custom-title")))
        .hasSize(1);
  }

  @Test
  void automaticCompactionBelowTheThresholdDoesNothing() throws IOException {
    transcript.user("hello");
    transcript.assistant("hi", 150_000);
    transcript.write(transcriptFile);

    CompactionOutcome outcome =
        compaction()
            .compact(
                new CompactionRequest(
                    transcriptFile,
                    Optional.empty(),
                    Optional.empty(),
                    CompactionLimits.DEFAULTS,
                    true));

    assertThat(outcome).isEqualTo(new CompactionOutcome.NotNeeded(150_000, 167_000));
  }

  @Test
  void theThresholdIsTheWindowLessTheCappedMaxOutputLessTheBuffer() {
    assertThat(CompactionLimits.DEFAULTS.autoCompactThreshold()).isEqualTo(167_000);
    assertThat(new CompactionLimits(200_000, 64_000).autoCompactThreshold()).isEqualTo(167_000);
    assertThat(new CompactionLimits(200_000, 8_000).autoCompactThreshold()).isEqualTo(179_000);
    assertThat(new CompactionLimits(1_000_000, 32_000).autoCompactThreshold()).isEqualTo(967_000);
  }

  @Test
  void theKeptMessagesNeverIncludeAnOrphanToolResult() throws IOException {
    String marker = longConversation();
    writeNotes(NOTES);

    List<TranscriptEntry> messages =
        Transcript.parse(
                String.join("\n", compact(Optional.of(marker), CompactionLimits.DEFAULTS).lines()))
            .messages();

    assertThat(KeptMessages.orphanToolResult(messages)).isEmpty();
  }
}
