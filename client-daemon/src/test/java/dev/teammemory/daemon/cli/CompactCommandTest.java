package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.testing.CommandRun;
import dev.teammemory.daemon.testing.ScriptedServer;
import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tmem compact} on a hand-made transcript in Claude Code's real shapes. */
class CompactCommandTest {

  static final String MARKER = "00000000-0000-4000-8000-000000000017";

  @TempDir Path home;

  private final CommandRun tmem = new CommandRun();
  private Path transcript;
  private Path notes;
  private Environment environment;

  @BeforeEach
  void files() throws IOException {
    transcript = copy("auth-session.jsonl", home.resolve("work/auth-session.jsonl"));
    notes = copy("auth-session.summary.md", home.resolve("work/summary.md"));
    environment =
        new Environment(
            Map.of(
                "CLAUDE_CONFIG_DIR",
                home.resolve(".claude").toString(),
                "XDG_STATE_HOME",
                home.resolve("state").toString()),
            home,
            home.resolve("work"));
  }

  static Path copy(String resource, Path target) throws IOException {
    Files.createDirectories(target.getParent());
    try (InputStream in = CompactCommandTest.class.getResourceAsStream("/compact/" + resource)) {
      Files.copy(in, target);
    }
    return target;
  }

  private CompactCommand command() {
    return new CompactCommand(
        environment, Clock.fixed(Instant.parse("2026-03-02T12:00:00Z"), ZoneOffset.UTC));
  }

  /** {@code tmem compact} of the transcript with its notes, summarized up to the marker. */
  private int compactWithNotes(String... more) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--transcript",
                transcript.toString(),
                "--notes",
                notes.toString(),
                "--last-summarized",
                MARKER));
    arguments.addAll(List.of(more));
    return tmem.run(command(), arguments.toArray(String[]::new));
  }

  @Test
  void textOutputIsTheCompactedConversationAsJsonLinesAndAReportOnStderr() {
    int exit = compactWithNotes();

    assertThat(exit).isZero();
    List<String> lines = tmem.out().lines().toList();
    assertThat(HandMadeTranscript.parse(lines.getFirst()).path("subtype").asText())
        .isEqualTo("compact_boundary");
    assertThat(HandMadeTranscript.parse(lines.get(1)).path("message").path("content").asText())
        .contains("Fixing the concurrent refresh race");
    assertThat(HandMadeTranscript.parse(lines.get(lines.size() - 2)).path("customTitle").asText())
        .isEqualTo("auth: JWT refresh race");
    assertThat(tmem.err())
        .startsWith("tmem: compacted by session notes (level 1): ~61")
        .contains("messages kept verbatim");
  }

  @Test
  void theWindowEdgeOnARealTranscriptKeepsEveryToolPairAndTheImageItReaches() {
    compactWithNotes();

    Transcript compacted = Transcript.parse(tmem.out());
    List<TranscriptEntry> messages = compacted.messages();
    assertThat(HandMadeTranscript.orphanToolResult(messages)).isEmpty();
    // After the marker (the screenshot message) come ~9,200 padded tokens: the window takes the
    // marker itself, image and all (2,000 for the image), and stops there.
    assertThat(
            messages.stream().flatMap(message -> message.toolUses().stream()).map(use -> use.id()))
        .contains("toolu_01Refresh")
        .doesNotContain("toolu_01Npm");
    assertThat(messages.get(1).uuid()).contains(MARKER);
    assertThat(messages.get(1).content())
        .anySatisfy(block -> assertThat(block).isInstanceOf(ContentBlock.Image.class));
    assertThat(tmem.out()).contains("iVBORw0KGgo").doesNotContain("[image]");
  }

  @Test
  void jsonOutputCarriesTheLevelTheTokenCountsAndTheMessages() {
    int exit = compactWithNotes("--format", "json");

    assertThat(exit).isZero();
    JsonNode json = HandMadeTranscript.parse(tmem.out());
    assertThat(json.path("outcome").asText()).isEqualTo("compacted");
    assertThat(json.path("level").asInt()).isEqualTo(1);
    assertThat(json.path("threshold").asLong()).isEqualTo(167_000);
    assertThat(json.path("preTokens").asLong()).isGreaterThan(json.path("postTokens").asLong());
    assertThat(json.path("messages").get(0).path("subtype").asText()).isEqualTo("compact_boundary");
    assertThat(tmem.err()).isEmpty();
  }

  @Test
  void withoutNotesTheOfflineSummaryIsUsedAndTheFallbackIsReported() {
    int exit =
        tmem.run(
            command(),
            "--transcript",
            transcript.toString(),
            "--notes",
            home.resolve("none.md").toString());

    assertThat(exit).isZero();
    assertThat(tmem.err())
        .contains(
            "tmem: fell back: level 1 (session notes): there are no session notes at "
                + home.resolve("none.md"))
        .contains("compacted by offline summary");
    assertThat(tmem.out()).contains("We need to move src/auth from sessions to JWT");
  }

  @Test
  void automaticCompactionBelowTheThresholdPrintsNothingAndSaysWhy() {
    int exit = tmem.run(command(), "--transcript", transcript.toString(), "--auto");

    assertThat(exit).isZero();
    assertThat(tmem.out()).isEmpty();
    assertThat(tmem.err())
        .isEqualTo(
            "tmem: not needed: the conversation is ~61000 tokens, below the threshold of 167000 (run without --auto to compact anyway)\n");
  }

  @Test
  void outputGoesToAFileWhenAsked() throws IOException {
    Path output = home.resolve("compacted.jsonl");

    int exit = compactWithNotes("--output", output.toString());

    assertThat(exit).isZero();
    assertThat(tmem.out()).isEmpty();
    assertThat(
            Transcript.parse(Files.readString(output))
                .conversation()
                .getFirst()
                .isCompactBoundary())
        .isTrue();
  }

  @Test
  void aMissingTranscriptIsAUsageError() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        Tmem.run(
            new String[] {"compact", "--transcript", home.resolve("nope.jsonl").toString()},
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .isEqualTo(
            "tmem: --transcript "
                + home.resolve("nope.jsonl")
                + " is not a file; give the session's .jsonl transcript\n");
  }

  @Test
  void aContextWindowTooSmallForTheReserveIsAUsageError() {
    int exit =
        tmem.run(command(), "--transcript", transcript.toString(), "--context-window", "30000");

    assertThat(exit).isEqualTo(2);
    assertThat(tmem.err())
        .isEqualTo(
            "tmem: --context-window/--max-output: contextWindow leaves no room below the reserve of 33000 tokens: 30000\n");
  }

  /**
   * Thirteen rounds as the agent records them: a typed prompt (a plain string), then one response
   * split into a thinking, a text and two parallel Read fragments, the two results, and a final
   * reply. Padded sizes per round: thinking 600 chars → 200, text 1,200 → 400, each call 80 chars →
   * 27, each result 6,000 → 2,000, the reply 3,000 → 1,000; 5,654 in all, 3 messages with text.
   */
  private static Path referenceSession(Path file) throws IOException {
    HandMadeTranscript session = new HandMadeTranscript("resumed-1", "/work/app");
    for (int round = 0; round < 13; round++) {
      session.user("Step " + round + ": keep going with the parser.");
      String response = session.newResponseId();
      session.thinking(response, "t".repeat(600));
      session.text(response, "x".repeat(1_200));
      String path = "/work/app/src/" + "a".repeat(38) + String.format("%02d", round) + ".java";
      String first = "toolu_" + round + "a";
      String second = "toolu_" + round + "b";
      session.toolCall(response, first, "Read", Map.of("file_path", path));
      session.toolCall(response, second, "Read", Map.of("file_path", path));
      session.toolResult(first, "r".repeat(6_000), false);
      session.toolResult(second, "r".repeat(6_000), false);
      session.assistant("y".repeat(3_000));
    }
    return session.write(file);
  }

  private List<String> keptUuids() {
    return Transcript.parse(tmem.out()).messages().stream()
        .filter(message -> !message.compactSummary())
        .map(message -> message.uuid().orElse(""))
        .filter(uuid -> uuid.startsWith("u-"))
        .toList();
  }

  @Test
  void theKeepRangeIsWidenedByPaddedEstimatesAndPlainPromptsCountNothing() throws IOException {
    Path session = referenceSession(home.resolve("work/resumed-1.jsonl"));

    // Summarized up to round 11's reply (u-096): round 12 is 5,654 tokens with 3 text messages.
    // Going back: the reply (+1,000), two results (+4,000: 10,654), two calls, then round 11's
    // text fragment (u-091, 5 text messages). Its response's thinking (u-090) comes with it.
    int exit =
        tmem.run(
            command(),
            "--transcript",
            session.toString(),
            "--notes",
            notes.toString(),
            "--last-summarized",
            "u-096");

    assertThat(exit).isZero();
    assertThat(keptUuids()).first().isEqualTo("u-090");
    assertThat(keptUuids()).hasSize(104 - 89);
  }

  @Test
  void aResumedSessionWithoutAMarkerStartsWithNothingKeptAndWidensFromTheEnd() throws IOException {
    Path session = referenceSession(home.resolve("work/resumed-1.jsonl"));

    int exit = tmem.run(command(), "--transcript", session.toString(), "--notes", notes.toString());

    assertThat(exit).isZero();
    assertThat(tmem.err()).startsWith("tmem: compacted by session notes (level 1)");
    // The same window as above, reached from the end: round 12, then round 11 back to its text.
    assertThat(keptUuids()).first().isEqualTo("u-090");
  }

  private String summaryText() {
    return Transcript.parse(tmem.out()).messages().stream()
        .filter(TranscriptEntry::compactSummary)
        .findFirst()
        .orElseThrow()
        .text();
  }

  private static void assertInOrder(String text, String... parts) {
    int from = 0;
    for (String part : parts) {
      int at = text.indexOf(part, from);
      assertThat(at).as("\"%s\" after position %d", part, from).isGreaterThanOrEqualTo(from);
      from = at + part.length();
    }
  }

  @Test
  void theSummaryMessageSaysWhatItIsThenSummarizesPointsToTheTranscriptAndSaysToCarryOn() {
    compactWithNotes();

    String summary = summaryText();
    assertInOrder(
        summary,
        "This conversation continues an earlier one that ran out of context.",
        "Fixing the concurrent refresh race",
        "read the full transcript at: " + transcript,
        "The most recent messages follow unchanged.",
        "Carry on with the last task now, without asking the user anything further.");
    assertThat(summary).endsWith("as if the conversation had never been interrupted.");
  }

  @Test
  void aManualFullSummaryLeavesTheNextMoveToTheUserAndAnAutomaticOneCarriesOn() {
    Path none = home.resolve("none.md");

    tmem.run(command(), "--transcript", transcript.toString(), "--notes", none.toString());
    String manual = summaryText();
    tmem.out.getBuffer().setLength(0);
    // A 40,000-token window puts the threshold at 7,000, below this 61,000-token session.
    tmem.run(
        command(),
        "--transcript",
        transcript.toString(),
        "--notes",
        none.toString(),
        "--auto",
        "--context-window",
        "40000");
    String automatic = summaryText();

    assertThat(manual)
        .endsWith("read the full transcript at: " + transcript)
        .doesNotContain("Carry on with the last task");
    assertInOrder(
        automatic,
        "1. Primary Request and Intent:",
        "read the full transcript at: " + transcript,
        "Carry on with the last task now");
  }

  @Test
  void theModelGetsThePreambleTheNineSectionsTheAdditionalInstructionsAndAClosingReminder()
      throws IOException {
    String answer =
        "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"stop_reason\":\"end_turn\","
            + "\"content\":[{\"type\":\"text\",\"text\":\"<analysis>notes</analysis><summary>1. Primary"
            + " Request and Intent: fix the race</summary>\"}]}";
    try (ScriptedServer model = new ScriptedServer(request -> ScriptedServer.json(200, answer))) {
      environment =
          new Environment(
              Map.of(
                  "CLAUDE_CONFIG_DIR",
                  home.resolve(".claude").toString(),
                  "XDG_STATE_HOME",
                  home.resolve("state").toString(),
                  "ANTHROPIC_API_KEY",
                  "sk-test",
                  "ANTHROPIC_BASE_URL",
                  model.url()),
              home,
              home.resolve("work"));

      int exit = compactWithNotes("--instructions", "Quote every failing test name exactly.");

      assertThat(exit).isZero();
      assertThat(tmem.err())
          .contains(
              "tmem: fell back: level 1 (session notes): instructions for the summary need a"
                  + " full summary")
          .contains("(level 2)");
      String prompt =
          HandMadeTranscript.parse(model.requests().getFirst().getBody().utf8())
              .path("messages")
              .get(0)
              .path("content")
              .get(0)
              .path("text")
              .asText();
      assertThat(prompt)
          .startsWith("Answer in plain text only and do not call any tool")
          .endsWith("A tool call is refused and fails this task.");
      assertInOrder(
          prompt,
          "<conversation>",
          "We need to move src/auth from sessions to JWT",
          "</conversation>",
          "1. Primary Request and Intent:",
          "9. Optional Next Step:",
          "Additional instructions:",
          "<session-notes>",
          "Fixing the concurrent refresh race",
          "</session-notes>",
          "Quote every failing test name exactly.",
          "Reminder: reply in text only");
    }
  }

  @Test
  void aRecentlyReadFileTooLargeToGiveBackIsNamedAndASmallOneIsReadAgain() throws IOException {
    Path big = Files.writeString(home.resolve("work/big.ts"), "const x = 1;\n".repeat(2_000));
    Path small = Files.writeString(home.resolve("work/small.ts"), "export const small = true;\n");
    HandMadeTranscript session = new HandMadeTranscript("files-1", home.resolve("work").toString());
    session.user("Look at both files.");
    String response = session.newResponseId();
    session.toolCall(response, "toolu_big", "Read", Map.of("file_path", big.toString()));
    session.toolCall(response, "toolu_small", "Read", Map.of("file_path", small.toString()));
    session.toolResult("toolu_big", "(the big file)", false);
    session.toolResult("toolu_small", "(the small file)", false);
    String marker = session.assistant("Both read.");
    for (int i = 0; i < 6; i++) {
      session.user("Next step " + i + ".");
      session.assistant(HandMadeTranscript.words("work" + i, 2_000));
    }
    Path file = session.write(home.resolve("work/files-1.jsonl"));

    int exit =
        tmem.run(
            command(),
            "--transcript",
            file.toString(),
            "--notes",
            notes.toString(),
            "--last-summarized",
            marker);

    assertThat(exit).isZero();
    assertThat(tmem.err()).contains("2 files read again");
    List<String> restored =
        Transcript.parse(tmem.out()).messages().stream()
            .filter(message -> message.meta())
            .map(TranscriptEntry::text)
            .toList();
    assertThat(restored)
        .containsExactly(
            "<system-reminder>\nCalled the Read tool with the following input: {\"file_path\":\""
                + small
                + "\"}\nResult of calling the Read tool (read again after compaction):\n"
                + "export const small = true;\n\n</system-reminder>",
            "<system-reminder>\n"
                + big
                + " was read before this conversation was compacted, but it is too large to give"
                + " back here. Read it again with the Read tool if you need it.\n</system-reminder>");
    assertThat(tmem.out()).doesNotContain("const x = 1;");
  }

  @Test
  void theOfflineSummarysNextStepIsTheOpenTaskNotALaterPreference() throws IOException {
    HandMadeTranscript session = new HandMadeTranscript("csv-1", home.resolve("work").toString());
    session.user("Add a CSV export button to the orders page.");
    String response = session.newResponseId();
    session.text(response, "I'll add the button next to the print one.");
    session.toolCall(
        response,
        "toolu_read",
        "Read",
        Map.of("file_path", home.resolve("work/Orders.tsx").toString()));
    session.toolResult("toolu_read", "export function Orders() {}", false);
    session.toolRound(
        "toolu_edit",
        "Edit",
        Map.of("file_path", home.resolve("work/Orders.tsx").toString()),
        "The file has been updated.");
    session.user("[Request interrupted by user]");
    session.user("I prefer short answers with the command first.");
    session.assistant("Understood.");
    Path file = session.write(home.resolve("work/csv-1.jsonl"));

    int exit =
        tmem.run(
            command(),
            "--transcript",
            file.toString(),
            "--notes",
            home.resolve("none.md").toString());

    assertThat(exit).isZero();
    String summary = summaryText();
    assertThat(summary.substring(summary.indexOf("9. Optional Next Step:")))
        .contains("Continue the latest task: \"Add a CSV export button to the orders page.\"")
        .doesNotContain("I prefer short answers");
  }
}
