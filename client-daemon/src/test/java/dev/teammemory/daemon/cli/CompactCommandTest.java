package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.testing.CommandRun;
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
  void theWindowEdgeOnARealTranscriptKeepsEveryToolPairAndDropsTheImage() {
    compactWithNotes();

    Transcript compacted = Transcript.parse(tmem.out());
    List<TranscriptEntry> messages = compacted.messages();
    assertThat(HandMadeTranscript.orphanToolResult(messages)).isEmpty();
    // The window reached back into the failing npm test run: its call came along with its result.
    assertThat(
            messages.stream().flatMap(message -> message.toolUses().stream()).map(use -> use.id()))
        .contains("toolu_01Npm", "toolu_01Refresh");
    assertThat(tmem.out()).doesNotContain("iVBORw0KGgo").contains("[image]");
    assertThat(messages.stream().map(message -> message.uuid().orElse("")))
        .doesNotContain("00000000-0000-4000-8000-000000000003");
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
}
