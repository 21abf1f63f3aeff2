package dev.teammemory.daemon.cli;

import static dev.teammemory.daemon.testing.TmemRun.tmem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.testing.TmemRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecallCommandTest {

  @TempDir Path root;
  private Path memory;
  private final Map<String, String> variables = new HashMap<>();

  @BeforeEach
  void memories() throws IOException {
    memory = root.resolve("memory");
    variables.put("CLAUDE_CONFIG_DIR", root.resolve("config").toString());
    variables.put("XDG_STATE_HOME", root.resolve("state").toString());
    variables.put("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", memory.toString());
    Files.createDirectories(memory.resolve("team"));
    Files.writeString(
        memory.resolve("feedback_bun.md"),
        "---\nname: Use bun\ndescription: Use bun instead of npm for scripts\ntype: feedback\n---\nbun run build\n");
    Files.writeString(
        memory.resolve("team/reference_ci.md"),
        "---\nname: CI shell\ndescription: Warning: CI scripts run under dash, not bash\ntype: reference\n---\nUse POSIX sh.\n");
  }

  private Environment environment() {
    return new Environment(variables, root.resolve("home"), root);
  }

  @Test
  void printsTheMemoriesAsAnAgentReadsThem() {
    TmemRun run = tmem(environment(), "recall", "install", "the", "packages", "with", "npm");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "Memory (saved today): "
                + memory.resolve("feedback_bun.md")
                + ":\n"
                + "---\nname: Use bun\ndescription: Use bun instead of npm for scripts\ntype: feedback\n---\nbun run build\n");
    assertThat(run.err())
        .startsWith(
            "tmem: 1 of 2 memories, picked by lexical ranking (offline (ANTHROPIC_API_KEY is not set))");
  }

  @Test
  void includesTheTeamFolder() {
    TmemRun run = tmem(environment(), "recall", "write a CI script");

    assertThat(run.out()).contains(memory.resolve("team/reference_ci.md").toString());
  }

  @Test
  void aSessionIsNotShownTheSameMemoryTwice() {
    TmemRun first = tmem(environment(), "recall", "--session", "s-1", "npm install");
    TmemRun second = tmem(environment(), "recall", "--session", "s-1", "npm install");
    TmemRun otherSession = tmem(environment(), "recall", "--session", "s-2", "npm install");

    assertThat(first.out()).contains("feedback_bun.md");
    assertThat(second.out()).isEmpty();
    assertThat(otherSession.out()).contains("feedback_bun.md");
    assertThat(root.resolve("state/tmem/recall/s-1.json")).exists();
  }

  @Test
  void jsonCarriesEveryField() throws IOException {
    TmemRun run =
        tmem(environment(), "recall", "--format", "json", "--tools", "Bash,Edit", "bun scripts");

    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.path("query").asText()).isEqualTo("bun scripts");
    assertThat(json.path("candidates").asInt()).isEqualTo(2);
    JsonNode recalled = json.path("memories").get(0);
    assertThat(recalled.path("filename").asText()).isEqualTo("feedback_bun.md");
    assertThat(recalled.path("ageDays").asInt()).isZero();
    assertThat(recalled.path("truncated").asBoolean()).isFalse();
    assertThat(json.path("sessionBudgetBytes").asInt()).isEqualTo(61_440);
  }

  @Test
  void recallsNothingWhenAutoMemoryIsOff() {
    variables.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");

    TmemRun run = tmem(environment(), "recall", "bun scripts");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "tmem: auto memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1); nothing to recall\n");
  }

  @Test
  void badInputIsAUsageError() {
    assertThat(tmem(environment(), "recall", "--session", "../x", "q").err())
        .startsWith("tmem: --session: a session id is letters, digits");
    assertThat(tmem(environment(), "recall", " ").exitCode()).isEqualTo(2);
    assertThat(tmem(environment(), "recall").exitCode()).isEqualTo(2);
    variables.put("ANTHROPIC_API_KEY", "sk-test");
    variables.put("ANTHROPIC_BASE_URL", "not a url");
    TmemRun misconfigured = tmem(environment(), "recall", "q");
    assertThat(misconfigured.exitCode()).isEqualTo(2);
    assertThat(misconfigured.err())
        .isEqualTo(
            "tmem: ANTHROPIC_BASE_URL is not an http or https URL: not a url; fix the variable or unset it\n");
  }
}
