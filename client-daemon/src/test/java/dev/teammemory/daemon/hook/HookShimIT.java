package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.agent.HookLog;
import dev.teammemory.daemon.api.LocalApi;
import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.testing.CommandRun;
import dev.teammemory.daemon.testing.Conditions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installed hook commands as Claude Code runs them: {@code sh -c '<command>'} with the hook's
 * JSON on stdin, answered by the real local API in this JVM when it runs, and by a real {@code
 * tmem} JVM (this build's class path) when it does not.
 */
class HookShimIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  /** This build's tmem, as the shim's fallback. */
  private static final String TMEM =
      HookInstallCommand.shellQuoted(
              Path.of(System.getProperty("java.home"), "bin", "java").toString())
          + " -cp "
          + HookInstallCommand.shellQuoted(System.getProperty("java.class.path"))
          + " dev.teammemory.daemon.cli.Tmem";

  @TempDir Path home;

  private final Map<String, String> variables = new HashMap<>();
  private Path project;
  private Path memory;
  private Path state;
  private LocalApi api;

  @BeforeEach
  void machine() throws IOException {
    project = Files.createDirectories(home.resolve("app"));
    memory = Files.createDirectories(home.resolve("memory"));
    Files.createDirectories(memory.resolve("team"));
    Files.writeString(
        memory.resolve("team/MEMORY.md"),
        "- [Testing](testing.md) — integration tests use real PostgreSQL\n");
    Files.writeString(
        memory.resolve("team/testing.md"),
        "---\nname: real-postgres-in-tests\ndescription: integration tests run against real"
            + " PostgreSQL, never an in-memory database\nmetadata:\n  type: feedback\n---\n\n"
            + "Integration tests use a real PostgreSQL.\n");
    variables.put("HOME", home.toString());
    variables.put("PATH", System.getenv("PATH"));
    variables.put("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString());
    variables.put("XDG_STATE_HOME", home.resolve("state").toString());
    variables.put(MemoryLocation.OVERRIDE_VARIABLE, memory.toString());
    variables.put("TMEM_OFFLINE", "1");
    state = home.resolve("state/tmem");
  }

  @AfterEach
  void stopTheApi() {
    if (api != null) {
      api.close();
    }
  }

  private Environment environment() {
    return new Environment(variables, home, home);
  }

  /** Installs the hooks with {@code fallback} as the way to start tmem; returns each command. */
  private Map<String, String> install(String fallback) throws IOException {
    CommandRun install = new CommandRun();
    assertThat(install.run(new HookInstallCommand(environment()), "--command", fallback))
        .as(install.err())
        .isZero();
    JsonNode hooks = JSON.readTree(home.resolve(".claude/settings.json").toFile()).path("hooks");
    Map<String, String> commands = new HashMap<>();
    hooks
        .properties()
        .forEach(
            event ->
                commands.put(
                    event.getKey(),
                    event.getValue().get(0).path("hooks").get(0).path("command").asText()));
    return commands;
  }

  private record Run(int exitCode, String out, String err) {}

  /** Runs a hook command as the agent does. */
  private Run hook(String command, Map<String, Object> input) throws Exception {
    Map<String, Object> fields = new HashMap<>(input);
    fields.put("session_id", "session-1");
    fields.put("cwd", project.toString());
    ProcessBuilder builder = new ProcessBuilder("sh", "-c", command).directory(project.toFile());
    builder.environment().clear();
    builder.environment().putAll(variables);
    Path out = Files.createTempFile(home, "out", ".txt");
    Path err = Files.createTempFile(home, "err", ".txt");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(JSON.writeValueAsBytes(fields));
    }
    assertThat(process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String context(Run run) throws IOException {
    return JSON.readTree(run.out()).path("hookSpecificOutput").path("additionalContext").asText();
  }

  @Test
  void withTheDaemonRunningTheShimGetsEveryAnswerFromItsLocalApi() throws Exception {
    // A fallback that cannot start: every answer below comes from the running API.
    Map<String, String> hooks = install("/nonexistent/tmem");
    api = LocalApi.serve(environment(), Clock.systemUTC(), 0);

    Run sessionStart = hook(hooks.get("SessionStart"), Map.of("hook_event_name", "SessionStart"));
    Run prompt =
        hook(
            hooks.get("UserPromptSubmit"),
            Map.of(
                "hook_event_name",
                "UserPromptSubmit",
                "prompt",
                "should the integration tests use an in-memory database?"));

    assertThat(sessionStart.exitCode()).isZero();
    assertThat(context(sessionStart))
        .startsWith(
            "## team/MEMORY.md (shared with everyone on this repository)\n\n<teammate-notes ")
        .contains("- [Testing](testing.md)");
    assertThat(prompt.exitCode()).isZero();
    assertThat(context(prompt))
        .contains(
            memory.resolve("team/testing.md").toString(),
            "Integration tests use a real PostgreSQL.");
  }

  @Test
  void theStopHookIsAnsweredAtOnceAndTheDaemonExtractsAfterwards() throws Exception {
    Map<String, String> hooks = install("/nonexistent/tmem");
    api = LocalApi.serve(environment(), Clock.systemUTC(), 0);
    Path transcriptFile = home.resolve(".claude/projects/-app/session-1.jsonl");
    HandMadeTranscript transcript = new HandMadeTranscript("session-1", project.toString());
    transcript.user("Install the dependencies.");
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");
    transcript.assistant("Switched to bun.");
    transcript.write(transcriptFile);

    Run stop =
        hook(
            hooks.get("Stop"),
            Map.of(
                "hook_event_name",
                "Stop",
                "transcript_path",
                transcriptFile.toString(),
                "stop_hook_active",
                false));

    assertThat(stop).isEqualTo(new Run(0, "", ""));
    Path saved = memory.resolve("bun-not-npm.md");
    Conditions.await("the daemon to save " + saved, DEADLINE, () -> Files.exists(saved));
  }

  @Test
  void withNoDaemonTheShimRunsTmemAndGivesTheSameAnswer() throws Exception {
    Map<String, String> hooks = install(TMEM);
    api = LocalApi.serve(environment(), Clock.systemUTC(), 0);
    Map<String, Object> input = Map.of("hook_event_name", "SessionStart");
    String fromTheDaemon = hook(hooks.get("SessionStart"), input).out();
    api.close();
    api = null;
    assertThat(state.resolve(LocalApi.ADDRESS_FILE)).doesNotExist();

    Run fromTmem = hook(hooks.get("SessionStart"), input);

    assertThat(fromTmem.exitCode()).isZero();
    assertThat(fromTmem.out()).isEqualTo(fromTheDaemon);
    assertThat(context(fromTmem)).contains("- [Testing](testing.md)");
  }

  @Test
  void aDaemonThatIsGoneWithoutCleaningUpIsTreatedAsNoDaemon() throws Exception {
    Map<String, String> hooks = install(TMEM);
    api = LocalApi.serve(environment(), Clock.systemUTC(), 0);
    String address = Files.readString(state.resolve(LocalApi.ADDRESS_FILE));
    api.close();
    api = null;
    // As a killed daemon leaves it: the address of a port nobody listens on.
    Files.writeString(state.resolve(LocalApi.ADDRESS_FILE), address);

    Run fromTmem = hook(hooks.get("SessionStart"), Map.of("hook_event_name", "SessionStart"));

    assertThat(fromTmem.exitCode()).isZero();
    assertThat(context(fromTmem)).contains("- [Testing](testing.md)");
  }

  @Test
  void withNoDaemonAndATmemThatCannotStartTheAgentGetsNothingAndTheLogSaysWhy() throws Exception {
    Map<String, String> hooks = install("/nonexistent/tmem");

    Run run = hook(hooks.get("SessionStart"), Map.of("hook_event_name", "SessionStart"));

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(Files.readAllLines(state.resolve(HookLog.FILE)))
        .singleElement()
        .asString()
        .endsWith(
            "tmem-hook session-start: no daemon answered and tmem could not be started (exit 127);"
                + " run tmem hook install again");
  }

  @Test
  void withNoDaemonATmemThatFailsNeverBlocksTheAgent() throws Exception {
    // An unknown log format is a usage error (exit 2), which Claude Code would take as "block
    // this prompt"; the shim turns every failure into no answer, exit 0 and a log line.
    Map<String, String> hooks = install(TMEM);
    variables.put("TMEM_LOG_FORMAT", "bogus");

    Run run =
        hook(
            hooks.get("UserPromptSubmit"),
            Map.of("hook_event_name", "UserPromptSubmit", "prompt", "how do we test?"));

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(Files.readString(state.resolve(HookLog.FILE)))
        .contains(
            "tmem-hook user-prompt: no daemon answered and tmem hook user-prompt failed (exit 2)");
  }

  @Test
  void aDaemonThatRefusesTheRequestCostsTheAgentNothingAndLeavesALogLine() throws Exception {
    Map<String, String> hooks = install("/nonexistent/tmem");
    api = LocalApi.serve(environment(), Clock.systemUTC(), 0);
    Files.writeString(
        state.resolve(LocalApi.CURL_CONFIG_FILE),
        "header = \"Authorization: Bearer " + "0".repeat(64) + "\"\n");

    Run refused = hook(hooks.get("SessionStart"), Map.of("hook_event_name", "SessionStart"));

    assertThat(refused).isEqualTo(new Run(0, "", ""));
    List<String> log = Files.readAllLines(state.resolve(HookLog.FILE));
    assertThat(log)
        .singleElement()
        .asString()
        .contains("tmem-hook session-start: the daemon at http://127.0.0.1:")
        .contains("gave no answer (curl exit 22)")
        .doesNotContain("0".repeat(64));
  }
}
