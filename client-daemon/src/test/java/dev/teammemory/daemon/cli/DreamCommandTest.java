package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DreamCommandTest {

  @TempDir Path home;

  private final CommandRun tmem = new CommandRun();
  private Environment environment;
  private Path memory;

  @BeforeEach
  void machine() throws IOException {
    memory = Files.createDirectories(home.resolve("memory"));
    environment =
        new Environment(
            Map.of(
                "CLAUDE_CONFIG_DIR",
                home.resolve(".claude").toString(),
                "XDG_STATE_HOME",
                home.resolve("state").toString(),
                MemoryLocation.OVERRIDE_VARIABLE,
                memory.toString(),
                "TMEM_OFFLINE",
                "1"),
            home,
            Files.createDirectories(home.resolve("app")));
    Files.writeString(
        memory.resolve("feedback_bun.md"),
        "---\nname: Bun\ndescription: use bun\ntype: feedback\n---\n\nUse bun.\n");
    Files.writeString(
        memory.resolve("feedback_bun_2.md"),
        "---\nname: Bun again\ndescription: use bun\ntype: feedback\n---\n\nUse bun.\n");
  }

  private DreamCommand command() {
    return new DreamCommand(environment, Clock.systemUTC());
  }

  @Test
  void dryRunListsTheChangesAndMakesNone() {
    assertThat(tmem.run(command(), "--dry-run")).isZero();

    assertThat(tmem.out())
        .startsWith(
            "an offline consolidation of "
                + memory
                + " would make 2 changes (nothing was changed):\n  delete feedback_bun");
    assertThat(memory.resolve("feedback_bun_2.md")).exists();
  }

  @Test
  void withoutOptionsItRunsOnlyWhenDue() {
    assertThat(tmem.run(command())).isZero();

    assertThat(tmem.out())
        .isEqualTo(
            "not due: 0 other sessions since the last consolidation; 5 are needed (--now consolidates anyway)\n");
  }

  @Test
  void nowConsolidatesAndReportsEachPhaseOnStderr() {
    assertThat(tmem.run(command(), "--now")).isZero();

    assertThat(tmem.out())
        .startsWith("consolidated " + memory + " by offline consolidation: 2 changes\n");
    assertThat(tmem.err())
        .contains(
            "tmem: dream: phase 1/4 orient",
            "tmem: dream: phase 4/4 prune and index",
            "tmem: dream: completed by offline consolidation: 2 changes");
  }

  @Test
  void statusShowsTheLockTheGatesAndTheLastRun() throws IOException {
    tmem.run(command(), "--now");
    CommandRun status = new CommandRun();

    assertThat(status.run(command(), "--status", "--format", "json")).isZero();

    JsonNode json = new ObjectMapper().readTree(status.out());
    assertThat(json.path("enabled").asBoolean()).isTrue();
    assertThat(json.path("lock").isNull()).isTrue();
    assertThat(json.path("lastRun").path("outcome").asText()).isEqualTo("completed");
    assertThat(json.path("lastRun").path("phase").asText()).isEqualTo("prune and index");
    assertThat(json.path("next").asText()).startsWith("after ");
    assertThat(Files.readString(home.resolve("state/tmem/dream.log")))
        .contains("dream: phase 1/4 orient", "dream: completed (2 changes)");
  }

  @Test
  void statusInTextSaysWhetherItIsEnabled() {
    assertThat(tmem.run(command(), "--status")).isZero();

    assertThat(tmem.out())
        .startsWith(
            "consolidation of "
                + memory
                + "\n  enabled: yes\n  last consolidation: never\n  lock: free\n  sessions since: 0 (5 needed)\n");
  }

  @Test
  void theOptionsExcludeEachOther() {
    assertThat(tmem.run(command(), "--now", "--dry-run")).isEqualTo(2);
  }

  @Test
  void onlyTranscriptsNamedByASessionUuidCountAsSessions() throws IOException {
    Path sessions =
        Files.createDirectories(ClaudeLayout.of(environment).projectDirectory(home.resolve("app")));
    for (String notASession :
        List.of("agent-1234", "agent-5678", "notes-export", "summary", "backup-2026-03-01")) {
      Files.writeString(sessions.resolve(notASession + ".jsonl"), "{}\n");
    }
    for (int i = 1; i <= 4; i++) {
      Files.writeString(
          sessions.resolve(String.format("6f1c2d3e-4a5b-4c6d-8e7f-%012d.jsonl", i)), "{}\n");
    }

    assertThat(tmem.run(command())).isZero();

    assertThat(tmem.out())
        .isEqualTo(
            "not due: 4 other sessions since the last consolidation; 5 are needed (--now consolidates anyway)\n");
  }

  @Test
  void inDailyLogModeDreamNowDistilsTheLogsIntoTopicFilesAndLeavesTheLogAlone() throws IOException {
    Map<String, String> variables = new HashMap<>(environment.variables());
    variables.put("TMEM_DAILY_LOG", "1");
    environment = new Environment(variables, home, home.resolve("app"));
    HandMadeTranscript session =
        new HandMadeTranscript(
            "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d", home.resolve("app").toString());
    session.user("I'm a backend engineer, new to the frontend. Add a date picker.");
    session.refusedCall(
        "toolu_1",
        "Bash",
        Map.of("command", "npm install react-day-picker"),
        HandMadeTranscript.REFUSED);
    session.user("No, use bun instead of npm.");
    session.assistant("Added it with bun.");
    Path transcript = session.write(home.resolve("session.jsonl"));
    CommandRun extract = new CommandRun();
    assertThat(
            extract.run(
                new ExtractCommand(environment, Clock.systemUTC()),
                "--transcript",
                transcript.toString()))
        .isZero();
    Path log;
    try (Stream<Path> files = Files.walk(memory.resolve("logs"))) {
      log = files.filter(Files::isRegularFile).findFirst().orElseThrow();
    }
    String logged = Files.readString(log);
    assertThat(logged)
        .contains(
            "user: The user is a backend engineer, new to the frontend",
            "feedback: Use bun instead of npm");

    CommandRun dryRun = new CommandRun();
    assertThat(dryRun.run(command(), "--dry-run")).isZero();
    assertThat(dryRun.out()).contains("distil " + memory.relativize(log) + " into topic files");
    assertThat(memory.resolve("bun-not-npm.md")).doesNotExist();

    assertThat(tmem.run(command(), "--now")).isZero();

    // The correction joins the bun memory already there; the user's role is new.
    assertThat(tmem.out())
        .contains(
            "rewrite feedback_bun.md (distilled from " + memory.relativize(log) + ")",
            "create backend-engineer-frontend.md (distilled from " + memory.relativize(log) + ")");
    assertThat(Files.readString(memory.resolve("feedback_bun.md")))
        .contains("> Use bun instead of npm");
    assertThat(Files.readString(memory.resolve("backend-engineer-frontend.md")))
        .contains("type: user", "The user is a backend engineer, new to the frontend");
    assertThat(Files.readString(memory.resolve("MEMORY.md")))
        .contains("(backend-engineer-frontend.md)");
    assertThat(Files.readString(log)).isEqualTo(logged);
  }
}
