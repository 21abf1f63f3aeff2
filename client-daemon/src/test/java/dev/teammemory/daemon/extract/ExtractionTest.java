package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Offline extraction after a turn, on real files. */
class ExtractionTest {

  @TempDir Path home;

  private final Clock clock = Clock.fixed(Instant.parse("2026-03-02T12:30:00Z"), ZoneOffset.UTC);
  private Path project;
  private Path memory;
  private ClaudeLayout layout;
  private MemoryLocation location;
  private HandMadeTranscript transcript;
  private Path transcriptFile;

  @BeforeEach
  void project() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    memory = home.resolve("memory");
    Environment environment =
        new Environment(
            Map.of(
                "CLAUDE_CONFIG_DIR",
                home.resolve(".claude").toString(),
                "XDG_STATE_HOME",
                home.resolve("state").toString(),
                MemoryLocation.OVERRIDE_VARIABLE,
                memory.toString()),
            home,
            project);
    layout = ClaudeLayout.of(environment);
    location = MemoryLocation.resolve(environment);
    transcript = new HandMadeTranscript("session-1", project.toString());
    transcriptFile = home.resolve("session-1.jsonl");
  }

  private ExtractionOutcome extract(boolean dailyLog) throws IOException {
    transcript.write(transcriptFile);
    return new Extraction(
            layout, new OfflineLanguageModel("test"), clock, SecretGuard.withDefaultRules())
        .afterTurn(
            new ExtractionRequest(
                transcriptFile,
                MemoryLocation.resolve(
                    new Environment(
                        Map.of(MemoryLocation.OVERRIDE_VARIABLE, memory.toString()),
                        home,
                        project)),
                dailyLog,
                project));
  }

  private ExtractionOutcome extract() throws IOException {
    return extract(false);
  }

  private static ExtractionOutcome.Extracted extracted(ExtractionOutcome outcome) {
    assertThat(outcome).isInstanceOf(ExtractionOutcome.Extracted.class);
    return (ExtractionOutcome.Extracted) outcome;
  }

  @Test
  void aCorrectionIsSavedAsATopicFileWithOneIndexLine() throws IOException {
    transcript.user("Install the dependencies.");
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("Switched to bun install.");

    ExtractionOutcome.Extracted extracted = extracted(extract());

    Path file = memory.resolve("bun-not-npm.md");
    assertThat(extracted.changes()).containsExactly(new ExtractionOutcome.Change(file, "created"));
    assertThat(Files.readString(file))
        .isEqualTo(
            """
            ---
            name: bun-not-npm
            description: "Use bun instead of npm"
            type: feedback
            metadata:
              type: feedback
            ---

            Use bun instead of npm.

            > No, use bun instead of npm.

            **Why:** the user corrected the agent (2026-03-02).
            **How to apply:** follow this in future sessions unless the user says otherwise.
            """);
    assertThat(Files.readString(memory.resolve("MEMORY.md")))
        .isEqualTo("- [bun-not-npm](bun-not-npm.md) — Use bun instead of npm\n");
  }

  @Test
  void theSameMemoryTwiceUpdatesNothingAndAnotherOnTheTopicUpdatesTheFile() throws IOException {
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("ok");
    extract();
    transcript.user("Remember: use bun instead of npm.");
    transcript.assistant("ok");

    assertThat(extracted(extract()).changes())
        .containsExactly(
            new ExtractionOutcome.Change(memory.resolve("bun-not-npm.md"), "unchanged"));

    transcript.user("Remember to use bun instead of npm for scripts too.");
    transcript.assistant("ok");
    assertThat(extracted(extract()).changes())
        .containsExactly(new ExtractionOutcome.Change(memory.resolve("bun-not-npm.md"), "updated"));
    try (Stream<Path> files = Files.list(memory)) {
      assertThat(files.map(path -> path.getFileName().toString()))
          .containsExactlyInAnyOrder("MEMORY.md", "bun-not-npm.md");
    }
    assertThat(Files.readString(memory.resolve("MEMORY.md")).lines()).hasSize(1);
    assertThat(Files.readString(memory.resolve("bun-not-npm.md")))
        .contains("> Remember to use bun instead of npm for scripts too.");
  }

  @Test
  void eachTurnIsLookedAtOnce() throws IOException {
    transcript.user("I prefer tabs over spaces.");
    transcript.assistant("ok");
    extract();

    assertThat(extract())
        .isEqualTo(new ExtractionOutcome.Skipped("no new messages since the last extraction"));
  }

  @Test
  void nothingRunsWhileTheAgentsTurnIsStillGoing() throws IOException {
    transcript.user("I prefer tabs over spaces.");
    transcript.toolCall(transcript.newResponseId(), "toolu_1", "Bash", Map.of("command", "ls"));

    assertThat(extract())
        .isEqualTo(new ExtractionOutcome.Skipped("the agent's turn has not finished"));
  }

  @Test
  void whenTheAgentWroteMemoryItselfTheTurnIsSkipped() throws IOException {
    transcript.user("Remember that I prefer tabs.");
    transcript.toolRound(
        "toolu_1",
        "Write",
        Map.of("file_path", memory.resolve("feedback_tabs.md").toString(), "content", "tabs"),
        "ok");
    transcript.assistant("Saved.");

    assertThat(extract())
        .isEqualTo(new ExtractionOutcome.Skipped("the agent saved memories itself in this turn"));
    assertThat(memory.resolve("MEMORY.md")).doesNotExist();
    assertThat(extract())
        .isEqualTo(new ExtractionOutcome.Skipped("no new messages since the last extraction"));
  }

  @Test
  void aProjectWideConventionGoesToTeamMemoryAndAPersonalPreferenceStaysPrivate()
      throws IOException {
    Files.createDirectories(memory.resolve("team"));
    transcript.user("In this repo we always use conventional commit messages.");
    transcript.assistant("ok");
    transcript.user("I prefer short answers.");
    transcript.assistant("ok");

    ExtractionOutcome.Extracted extracted = extracted(extract());

    assertThat(extracted.changes())
        .extracting(change -> memory.relativize(change.file()).toString())
        .containsExactly("team/conventional-commit-messages.md", "prefer-short-answers.md");
    assertThat(Files.readString(memory.resolve("team/MEMORY.md")))
        .contains("(conventional-commit-messages.md)");
  }

  @Test
  void refusalsAreReportedAndNothingIsWrittenForThem() throws IOException {
    transcript.user("Remember that I'm currently debugging the login page.");
    transcript.assistant("ok");

    ExtractionOutcome.Extracted extracted = extracted(extract());

    assertThat(extracted.changes()).isEmpty();
    assertThat(extracted.refusals())
        .containsExactly(
            new ExtractionOutcome.Refusal(
                "ephemeral task state: it only matters to the current task",
                "Remember that I'm currently debugging the login page."));
  }

  @Test
  void inDailyLogModeMemoriesAreAppendedToTodaysLogAndTheIndexIsUntouched() throws IOException {
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("ok");

    ExtractionOutcome.Extracted extracted = extracted(extract(true));

    Path log = memory.resolve("logs/2026/03/2026-03-02.md");
    assertThat(extracted.changes()).containsExactly(new ExtractionOutcome.Change(log, "appended"));
    assertThat(Files.readString(log))
        .isEqualTo("# 2026-03-02\n\n- 12:30 feedback: Use bun instead of npm\n");
    assertThat(memory.resolve("MEMORY.md")).doesNotExist();

    transcript.user("I prefer short answers.");
    transcript.assistant("ok");
    extract(true);
    assertThat(Files.readString(log))
        .isEqualTo(
            "# 2026-03-02\n\n- 12:30 feedback: Use bun instead of npm\n- 12:30 feedback: The user prefers short answers\n");
  }

  @Test
  void requestsWhileAnExtractionRunsAreCoalescedIntoOneTrailingRun() throws IOException {
    transcript.user("I prefer short answers.");
    transcript.assistant("ok");
    transcript.write(transcriptFile);
    Path lockFile = Extraction.lockFile(layout.stateHome(), memory);
    Files.createDirectories(lockFile.getParent());
    Extraction extraction =
        new Extraction(
            layout, new OfflineLanguageModel("test"), clock, SecretGuard.withDefaultRules());
    ExtractionRequest request = new ExtractionRequest(transcriptFile, location, false, project);
    try (FileChannel channel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {
      assertThat(extraction.afterTurn(request)).isEqualTo(new ExtractionOutcome.Coalesced());
      assertThat(extraction.afterTurn(request)).isEqualTo(new ExtractionOutcome.Coalesced());
    }
    HandMadeTranscript other = new HandMadeTranscript("session-2", project.toString());
    other.user("hello");
    other.assistant("hi");
    Path otherFile = other.write(home.resolve("session-2.jsonl"));

    ExtractionOutcome.Extracted extracted =
        extracted(extraction.afterTurn(new ExtractionRequest(otherFile, location, false, project)));

    assertThat(extracted.trailingRuns()).isEqualTo(1);
    assertThat(extracted.changes())
        .extracting(ExtractionOutcome.Change::file)
        .containsExactly(memory.resolve("prefer-short-answers.md"));
    assertThat(extraction.afterTurn(request))
        .isEqualTo(new ExtractionOutcome.Skipped("no new messages since the last extraction"));
  }

  @Test
  void nothingIsExtractedWhenAutoMemoryIsOff() throws IOException {
    Environment off =
        new Environment(Map.of("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1"), home, project);
    transcript.user("I prefer short answers.");
    transcript.assistant("ok");
    transcript.write(transcriptFile);

    ExtractionOutcome outcome =
        new Extraction(
                layout, new OfflineLanguageModel("test"), clock, SecretGuard.withDefaultRules())
            .afterTurn(
                new ExtractionRequest(transcriptFile, MemoryLocation.resolve(off), false, project));

    assertThat(outcome)
        .isEqualTo(
            new ExtractionOutcome.Skipped(
                "auto memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)"));
    assertThat(List.of(home.resolve("memory"))).allMatch(path -> !Files.exists(path));
  }
}
