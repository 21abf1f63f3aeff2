package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import dev.teammemory.daemon.testing.Conditions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Stop hook hands the turn to a {@code tmem} process of its own, which extracts. */
class StopHookIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @TempDir Path home;

  private final CommandRun tmem = new CommandRun();
  private final Map<String, String> variables = new HashMap<>();
  private Path project;
  private Path memory;
  private Path transcriptFile;
  private HookCommand.Stop stop;

  @BeforeEach
  void machine() {
    project = home.resolve("app");
    memory = home.resolve("memory");
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
    transcriptFile = home.resolve(".claude/projects/-app/session-1.jsonl");
  }

  @AfterEach
  void stopTheBackgroundProcess() {
    if (stop != null) {
      stop.background().ifPresent(Process::destroyForcibly);
    }
  }

  @Test
  void theHookReturnsAndAProcessOfItsOwnExtractsTheTurnsMemories()
      throws IOException, ExecutionException, InterruptedException, TimeoutException {
    Files.createDirectories(project);
    HandMadeTranscript transcript = new HandMadeTranscript("session-1", project.toString());
    transcript.user("Install the dependencies.");
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("Switched to bun.");
    transcript.write(transcriptFile);
    byte[] input =
        JSON.writeValueAsBytes(
            Map.of(
                "session_id",
                "session-1",
                "transcript_path",
                transcriptFile.toString(),
                "cwd",
                project.toString(),
                "hook_event_name",
                "Stop",
                "stop_hook_active",
                false));
    stop =
        new HookCommand.Stop(
            new Environment(variables, home, home),
            new ByteArrayInputStream(input),
            Clock.systemUTC());

    int exit = tmem.run(stop);

    assertThat(exit).isZero();
    assertThat(tmem.out()).isEmpty();
    assertThat(tmem.err()).isEmpty();
    Process background = stop.background().orElseThrow();
    assertThat(background.pid()).isNotEqualTo(ProcessHandle.current().pid());
    Path saved = memory.resolve("bun-not-npm.md");
    Path log = home.resolve("state/tmem/" + DetachedStop.LOG_FILE);
    Conditions.await(
        "the background process to save " + saved + " or to end",
        DEADLINE,
        () -> Files.exists(saved) || !background.isAlive());
    assertThat(background.onExit().get(DEADLINE.toSeconds(), TimeUnit.SECONDS).exitValue())
        .as("the background process's exit code; its output: %s", Files.readString(log))
        .isZero();
    assertThat(saved).exists();
    assertThat(Files.readString(memory.resolve("MEMORY.md"))).contains("(bun-not-npm.md)");
    assertThat(log).isEmptyFile();
  }
}
