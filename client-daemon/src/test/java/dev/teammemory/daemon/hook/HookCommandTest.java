package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.agent.TeammateNotes;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hook entry points, fed Claude Code's hook JSON on stdin. */
class HookCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private final CommandRun tmem = new CommandRun();
  private final Clock clock = Clock.fixed(Instant.parse("2026-03-02T12:30:00Z"), ZoneOffset.UTC);
  private final Map<String, String> variables = new HashMap<>();
  private Path project;
  private Path memory;
  private Path transcriptFile;

  @BeforeEach
  void machine() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    memory = home.resolve("memory");
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
    transcriptFile = home.resolve(".claude/projects/-app/session-1.jsonl");
  }

  private Environment environment() {
    return new Environment(variables, home, home);
  }

  private InputStream input(String event, Map<String, Object> fields) throws IOException {
    Map<String, Object> input = new HashMap<>(fields);
    input.put("session_id", "session-1");
    input.put("transcript_path", transcriptFile.toString());
    input.put("cwd", project.toString());
    input.put("hook_event_name", event);
    return new ByteArrayInputStream(JSON.writeValueAsBytes(input));
  }

  private static JsonNode json(String text) throws IOException {
    return JSON.readTree(text);
  }

  private void memoryFile(String name, String description, String body) throws IOException {
    Files.createDirectories(memory);
    Files.writeString(
        memory.resolve(name),
        "---\nname: "
            + name
            + "\ndescription: "
            + description
            + "\ntype: feedback\n---\n\n"
            + body
            + "\n");
  }

  @Test
  void withThePrivateIndexSettingSessionStartGivesTheInstructionsAndTheIndex() throws IOException {
    Files.createDirectories(memory);
    Files.writeString(memory.resolve("MEMORY.md"), "- [Bun](feedback_bun.md) — use bun, not npm\n");

    int exit =
        tmem.run(
            new HookCommand.SessionStart(
                environment(), input("SessionStart", Map.of("source", "startup")), clock),
            "--private-index");

    assertThat(exit).isZero();
    JsonNode output = json(tmem.out()).path("hookSpecificOutput");
    assertThat(output.path("hookEventName").asText()).isEqualTo("SessionStart");
    assertThat(output.path("additionalContext").asText())
        .startsWith("## MEMORY.md\n\n- [Bun](feedback_bun.md) — use bun, not npm")
        .contains(
            "# Auto memory\n\nYou keep a memory across conversations in files under `"
                + memory
                + "`.",
            "## What belongs elsewhere")
        .doesNotContain("team");
  }

  @Test
  void byDefaultSessionStartAddsNothingTheAgentLoadsItself() throws IOException {
    Files.createDirectories(memory);
    Files.writeString(memory.resolve("MEMORY.md"), "- [Bun](feedback_bun.md) — use bun, not npm\n");

    int exit =
        tmem.run(
            new HookCommand.SessionStart(
                environment(), input("SessionStart", Map.of("source", "startup")), clock));

    assertThat(exit).isZero();
    assertThat(tmem.out()).isEmpty();
  }

  @Test
  void sessionStartGivesTheTeamIndexAndTeamInstructionsButNotThePrivateIndex() throws IOException {
    Files.createDirectories(memory.resolve("team"));
    Files.writeString(memory.resolve("MEMORY.md"), "- [Bun](feedback_bun.md) — use bun, not npm\n");
    Files.writeString(
        memory.resolve("team/MEMORY.md"), "- [Testing](testing.md) — real PostgreSQL in tests\n");

    tmem.run(
        new HookCommand.SessionStart(
            environment(), input("SessionStart", Map.of("source", "startup")), clock));

    assertThat(json(tmem.out()).path("hookSpecificOutput").path("additionalContext").asText())
        .startsWith(
            "## team/MEMORY.md (shared with everyone on this repository)\n\n<teammate-notes"
                + " source=\"team/MEMORY.md\" author=\"unknown\" written=\"unknown\">\n")
        .contains(
            "- [Testing](testing.md) — real PostgreSQL in tests\n</teammate-notes>",
            "## Team memory",
            "Never put a key, token, password or other credential",
            TeammateNotes.MEANING)
        .doesNotContain("feedback_bun.md", "# Auto memory", "## MEMORY.md");
  }

  @Test
  void inDailyLogModeSessionStartDescribesTheLogAndLeavesTeamMemoryOut() throws IOException {
    Files.createDirectories(memory.resolve("team"));
    variables.put("TMEM_DAILY_LOG", "1");

    tmem.run(
        new HookCommand.SessionStart(
            environment(), input("SessionStart", Map.of("source", "startup")), clock));

    assertThat(json(tmem.out()).path("hookSpecificOutput").path("additionalContext").asText())
        .startsWith("# Auto memory (daily log)")
        .contains(
            "`logs/YYYY/MM/YYYY-MM-DD.md` under `" + memory + "`",
            "`MEMORY.md` is read-only in this mode")
        .doesNotContain("team/MEMORY.md");
  }

  @Test
  void withAutoMemoryOffSessionStartPrintsNothing() throws IOException {
    variables.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");

    assertThat(
            tmem.run(
                new HookCommand.SessionStart(
                    environment(), input("SessionStart", Map.of()), clock)))
        .isZero();
    assertThat(tmem.out()).isEmpty();
  }

  @Test
  void userPromptRecallsRelevantMemoriesOncePerSession() throws IOException {
    memoryFile(
        "feedback_bun.md",
        "package manager: use bun, not npm",
        "Use bun for installs and scripts.");
    memoryFile("feedback_css.md", "styling: tailwind utility classes only", "No CSS modules.");

    tmem.run(
        new HookCommand.UserPrompt(
            environment(),
            input(
                "UserPromptSubmit",
                Map.of("prompt", "install the package dependencies with the package manager")),
            clock));

    JsonNode output = json(tmem.out()).path("hookSpecificOutput");
    assertThat(output.path("hookEventName").asText()).isEqualTo("UserPromptSubmit");
    assertThat(output.path("additionalContext").asText())
        .contains("Use bun for installs and scripts.")
        .doesNotContain("No CSS modules.");

    CommandRun again = new CommandRun();
    again.run(
        new HookCommand.UserPrompt(
            environment(),
            input(
                "UserPromptSubmit",
                Map.of("prompt", "install the package dependencies with the package manager")),
            clock));
    assertThat(again.out()).doesNotContain("Use bun for installs");
  }

  @Test
  void slashCommandsGetNoMemories() throws IOException {
    memoryFile("feedback_bun.md", "package manager: use bun, not npm", "Use bun.");

    assertThat(
            tmem.run(
                new HookCommand.UserPrompt(
                    environment(), input("UserPromptSubmit", Map.of("prompt", "/compact")), clock)))
        .isZero();
    assertThat(tmem.out()).isEmpty();
  }

  @Test
  void preCompactPassesTheSessionNotesAsCustomInstructions() throws IOException {
    new HandMadeTranscript("session-1", project.toString()).write(transcriptFile);
    Path notes = home.resolve(".claude/projects/-app/session-1/session-memory/summary.md");
    Files.createDirectories(notes.getParent());
    Files.writeString(
        notes,
        "\n# Current State\n_What is actively being worked on right now?_\nAdding the refresh mutex.\n");

    int exit =
        tmem.run(
            new HookCommand.PreCompact(
                environment(),
                input("PreCompact", Map.of("trigger", "auto", "custom_instructions", "")),
                clock));

    assertThat(exit).isZero();
    assertThat(tmem.out())
        .startsWith("These are the session notes kept for this conversation (at " + notes + ").")
        .contains(
            "<session-notes>\n# Current State\n_What is actively being worked on right now?_\nAdding the refresh mutex.\n</session-notes>");
  }

  @Test
  void preCompactPrintsNothingWhenTheNotesAreMissing() throws IOException {
    new HandMadeTranscript("session-1", project.toString()).write(transcriptFile);

    assertThat(
            tmem.run(
                new HookCommand.PreCompact(
                    environment(), input("PreCompact", Map.of("trigger", "manual")), clock)))
        .isZero();
    assertThat(tmem.out()).isEmpty();
  }

  @Test
  void stopInTheForegroundExtractsTheTurnsMemoriesBeforeItReturns() throws IOException {
    HandMadeTranscript transcript = new HandMadeTranscript("session-1", project.toString());
    transcript.user("Install the dependencies.");
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("Switched to bun.");
    transcript.write(transcriptFile);

    int exit =
        tmem.run(
            new HookCommand.Stop(
                environment(), input("Stop", Map.of("stop_hook_active", false)), clock),
            "--foreground");

    assertThat(exit).isZero();
    assertThat(tmem.out()).isEmpty();
    assertThat(memory.resolve("bun-not-npm.md")).exists();
    assertThat(Files.readString(memory.resolve("MEMORY.md"))).contains("(bun-not-npm.md)");
  }

  @Test
  void stopDoesNothingWhileAStopHookIsAlreadyActive() throws IOException {
    HandMadeTranscript transcript = new HandMadeTranscript("session-1", project.toString());
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("ok");
    transcript.write(transcriptFile);

    assertThat(
            tmem.run(
                new HookCommand.Stop(
                    environment(), input("Stop", Map.of("stop_hook_active", true)), clock)))
        .isZero();
    assertThat(memory).doesNotExist();
  }

  @Test
  void inputThatIsNotJsonIsANonBlockingErrorNeverExitCodeTwo() {
    InputStream garbage = new ByteArrayInputStream("not json".getBytes(StandardCharsets.UTF_8));

    int exit = tmem.run(new HookCommand.UserPrompt(environment(), garbage, clock));

    assertThat(exit).isEqualTo(1);
    assertThat(tmem.err())
        .isEqualTo(
            "tmem: the hook input on stdin is not JSON; run this command from a Claude Code hook\n");
  }
}
