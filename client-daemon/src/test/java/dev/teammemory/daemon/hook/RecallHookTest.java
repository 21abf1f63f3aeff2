package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import dev.teammemory.daemon.testing.TmemRun;
import java.io.ByteArrayInputStream;
import java.io.IOException;
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

/**
 * Recall on every prompt, through the UserPromptSubmit hook, on a session transcript in Claude
 * Code's format: what the agent has read and whether it compacted change what it is shown.
 */
class RecallHookTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SESSION = "3f1c0a2e-5d4b-4c3a-9e8f-7a6b5c4d3e2f";

  @TempDir Path home;

  private final Clock clock = Clock.fixed(Instant.parse("2026-03-02T12:30:00Z"), ZoneOffset.UTC);
  private final Map<String, String> variables = new HashMap<>();
  private Path project;
  private Path memory;
  private Path transcriptFile;
  private HandMadeTranscript transcript;

  @BeforeEach
  void machine() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    memory = home.resolve("memory");
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
    // Where the agent keeps the session's transcript, so that tmem recall --session finds it too.
    transcriptFile = ClaudeLayout.of(environment()).transcript(project, SESSION);
    transcript = new HandMadeTranscript(SESSION, project.toString());
    transcript.user("Set up the project.");
    transcript.assistant("Done.");
    memory("feedback_bun.md", "Use bun instead of npm for installs and scripts", "bun install");
    memory("feedback_css.md", "Styling uses tailwind utility classes only", "No CSS modules.");
  }

  private void memory(String name, String description, String body) throws IOException {
    Files.createDirectories(memory);
    Files.writeString(
        memory.resolve(name),
        "---\nname: "
            + name
            + "\ndescription: "
            + description
            + "\ntype: feedback\n---\n\n"
            + body);
  }

  private Environment environment() {
    return new Environment(variables, home, home);
  }

  /** The context the hook gives the agent for {@code prompt}; empty when it gives none. */
  private String prompt(String prompt) throws IOException {
    transcript.write(transcriptFile);
    Map<String, Object> input = new HashMap<>();
    input.put("session_id", SESSION);
    input.put("transcript_path", transcriptFile.toString());
    input.put("cwd", project.toString());
    input.put("hook_event_name", "UserPromptSubmit");
    input.put("prompt", prompt);
    CommandRun tmem = new CommandRun();
    int exit =
        tmem.run(
            new HookCommand.UserPrompt(
                environment(), new ByteArrayInputStream(JSON.writeValueAsBytes(input)), clock));
    assertThat(exit).isZero();
    if (tmem.out().isBlank()) {
      return "";
    }
    JsonNode output = JSON.readTree(tmem.out());
    return output.path("hookSpecificOutput").path("additionalContext").asText();
  }

  @Test
  void aOneWordPromptGetsNothingAndASentenceWithTheSameWordDoes() throws IOException {
    assertThat(prompt("npm")).isEmpty();
    assertThat(prompt("  npm  ")).isEmpty();

    assertThat(prompt("install it with npm")).contains("bun install");
  }

  @Test
  void aMemoryTheAgentReadInTheSessionIsNotShownAgain() throws IOException {
    transcript.toolRound(
        "toolu_read",
        "Read",
        Map.of("file_path", memory.resolve("feedback_bun.md").toString()),
        "     1\t---\n     2\tname: feedback_bun.md");
    transcript.assistant("Noted the package manager rule.");

    assertThat(prompt("install the npm packages and fix the tailwind styling utility classes"))
        .contains("No CSS modules.")
        .doesNotContain("bun install");
  }

  @Test
  void afterACompactionMemoriesShownBeforeItAreShownAgainAndTheBudgetStartsAfresh()
      throws IOException {
    assertThat(prompt("install the npm packages")).contains("bun install");
    assertThat(prompt("install the npm packages")).isEmpty();
    long before = sessionBytes();

    transcript.compactBoundary();
    transcript.user("Carry on.");
    transcript.assistant("Carrying on.");

    assertThat(before).isPositive();
    assertThat(sessionBytes()).isZero();
    assertThat(prompt("install the npm packages")).contains("bun install");
    assertThat(sessionBytes()).isEqualTo(before);
  }

  /** What the session has been shown so far, as {@code tmem recall --format json} reports it. */
  private long sessionBytes() throws IOException {
    transcript.write(transcriptFile);
    TmemRun run =
        TmemRun.tmem(
            environment(),
            "recall",
            "--session",
            SESSION,
            "--cwd",
            project.toString(),
            "--format",
            "json",
            "nothing relevant whatsoever here");
    assertThat(run.exitCode()).isZero();
    return JSON.readTree(run.out()).path("sessionBytes").asLong();
  }

  @Test
  void aChineseQuestionFindsAChineseMemoryWithoutAModel() throws IOException {
    Files.writeString(
        memory.resolve("reference_pagerduty.md"),
        "---\nname: 发版前检查 PagerDuty\ndescription: 每次发版前先去 PagerDuty 看 payments-oncall 有没有未关闭的事故\n"
            + "type: reference\n---\n\n有未关闭的 incident 就先别发版。\n");

    assertThat(prompt("准备发版了，发版之前要检查什么？")).contains("有未关闭的 incident 就先别发版。");
    assertThat(prompt("继续")).isEmpty();
  }
}
