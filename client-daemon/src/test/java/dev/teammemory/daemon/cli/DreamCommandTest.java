package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
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
}
