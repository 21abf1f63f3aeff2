package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The instructions the SessionStart hook gives an agent, in our words. */
class SessionStartInstructionsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private final Map<String, String> variables = new HashMap<>();

  /** The context the hook gives at 23:59 on 2026-03-02, for a session that will run past it. */
  private String sessionStart(String... options) throws IOException {
    Path project = Files.createDirectories(home.resolve("app"));
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, home.resolve("memory").toString());
    Map<String, Object> input =
        Map.of(
            "session_id", "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b",
            "cwd", project.toString(),
            "hook_event_name", "SessionStart",
            "source", "startup");
    CommandRun tmem = new CommandRun();
    int exit =
        tmem.run(
            new HookCommand.SessionStart(
                new Environment(variables, home, home),
                new ByteArrayInputStream(JSON.writeValueAsBytes(input)),
                Clock.fixed(Instant.parse("2026-03-02T23:59:00Z"), ZoneOffset.UTC)),
            options);
    assertThat(exit).isZero();
    return JSON.readTree(tmem.out()).path("hookSpecificOutput").path("additionalContext").asText();
  }

  @Test
  void theInstructionsSayWhenToReadToCheckBeforeRecommendingAndWhatBelongsElsewhere()
      throws IOException {
    String context = sessionStart("--private-index");

    assertThat(context)
        .contains(
            "## When to read it",
            "always when the user asks you to check or recall",
            "## Check before you recommend",
            "names a file, function, flag or command",
            "before you recommend it, check that it still does",
            "## What belongs elsewhere",
            "a plan for the task at hand belongs in a plan, steps and progress in a task list",
            "what the repository already says: code, structure",
            "name: bun-not-npm");
    // Compact, so that it fits the hook's answer beside the memory index.
    assertThat(context.length()).isLessThan(5_000);
    // Our words, not the reference client's.
    assertThat(context)
        .doesNotContain(
            "What NOT to save in memory",
            "is not the same as",
            "You have a persistent, file-based memory system");
  }

  @Test
  void inDailyLogModeTheLogIsNamedByItsPatternNotByTodaysPath() throws IOException {
    variables.put("TMEM_DAILY_LOG", "1");

    String context = sessionStart();

    assertThat(context)
        .contains("`logs/YYYY/MM/YYYY-MM-DD.md` under `" + home.resolve("memory") + "`")
        .doesNotContain("2026-03-02", "logs/2026/03");
  }
}
