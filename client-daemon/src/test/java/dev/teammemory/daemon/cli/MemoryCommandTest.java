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

class MemoryCommandTest {

  @TempDir Path root;
  private Path memory;
  private final Map<String, String> variables = new HashMap<>();

  @BeforeEach
  void override() {
    memory = root.resolve("memory");
    variables.put("CLAUDE_CONFIG_DIR", root.resolve("config").toString());
    variables.put("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", memory.toString());
  }

  private Environment environment() {
    return new Environment(variables, root.resolve("home"), root);
  }

  @Test
  void pathPrintsTheResolvedDirectory() {
    TmemRun run = tmem(environment(), "memory", "path");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo(memory + "\n");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void pathAsJsonSaysWhereItCameFromAndWhetherMemoryIsOn() throws IOException {
    variables.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");

    TmemRun run = tmem(environment(), "memory", "path", "--format", "json");

    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.path("directory").asText()).isEqualTo(memory.toString());
    assertThat(json.path("source").asText()).isEqualTo("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE");
    assertThat(json.path("enabled").asBoolean()).isFalse();
    assertThat(json.path("disabledBy").asText()).isEqualTo("CLAUDE_CODE_DISABLE_AUTO_MEMORY=1");
  }

  @Test
  void pathStillPrintsWhenMemoryIsOffAndSaysSoOnStderr() {
    variables.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1");

    TmemRun run = tmem(environment(), "memory", "path");

    assertThat(run.out()).isEqualTo(memory + "\n");
    assertThat(run.err())
        .isEqualTo("tmem: auto memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)\n");
  }

  @Test
  void indexPrintsWhatTheAgentIsGiven() throws IOException {
    Files.createDirectories(memory.resolve("team"));
    Files.writeString(memory.resolve("MEMORY.md"), "- [Prefs](prefs.md) — uses bun\n");
    Files.writeString(memory.resolve("team/MEMORY.md"), "- [CI](ci.md) — GitHub Actions\n");

    TmemRun run = tmem(environment(), "memory", "index");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "Contents of "
                + memory.resolve("MEMORY.md")
                + " (user's auto-memory, persists across conversations):\n\n"
                + "- [Prefs](prefs.md) — uses bun\n\n"
                + "Contents of "
                + memory.resolve("team/MEMORY.md")
                + " (team memory, shared with everyone working on this repository):\n\n"
                + "- [CI](ci.md) — GitHub Actions\n");
  }

  @Test
  void indexOfAnOversizedFileCarriesTheWarning() throws IOException {
    Files.createDirectories(memory);
    Files.writeString(memory.resolve("MEMORY.md"), "- entry\n".repeat(250));

    TmemRun run = tmem(environment(), "memory", "index", "--format", "json");

    JsonNode index = new ObjectMapper().readTree(run.out()).path("indexes").get(0);
    assertThat(index.path("truncatedByLines").asBoolean()).isTrue();
    assertThat(index.path("lineCount").asInt()).isEqualTo(250);
    assertThat(index.path("content").asText())
        .contains("> WARNING: MEMORY.md is 250 lines (limit: 200).");
  }

  @Test
  void indexOfAnEmptyMemorySaysItIsEmpty() {
    TmemRun run = tmem(environment(), "memory", "index");

    assertThat(run.out())
        .endsWith(
            "Your MEMORY.md is currently empty. When you save new memories, they will appear here.\n");
  }

  @Test
  void indexGivesNothingWhenMemoryIsOff() {
    variables.put("CLAUDE_CODE_SIMPLE", "1");

    TmemRun run = tmem(environment(), "memory", "index");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("tmem: auto memory is off (CLAUDE_CODE_SIMPLE=1)\n");
  }

  @Test
  void aCwdThatIsNotADirectoryIsAUsageError() {
    TmemRun run = tmem(environment(), "memory", "path", "--cwd", "nowhere");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo("tmem: --cwd nowhere is not a directory; give the project's directory\n");
  }

  @Test
  void theGroupAloneIsAUsageError() {
    assertThat(tmem(environment(), "memory").exitCode()).isEqualTo(2);
  }

  @Test
  void aRemoteSessionWithoutPersistentStorageHasAutoMemoryOff() throws IOException {
    variables.remove("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE");
    variables.put("CLAUDE_CODE_REMOTE", "true");

    TmemRun path = tmem(environment(), "memory", "path", "--format", "json");
    TmemRun recall = tmem(environment(), "recall", "install the packages");

    JsonNode json = new ObjectMapper().readTree(path.out());
    assertThat(json.path("enabled").asBoolean()).isFalse();
    assertThat(json.path("disabledBy").asText())
        .isEqualTo(
            "CLAUDE_CODE_REMOTE=true without CLAUDE_CODE_REMOTE_MEMORY_DIR (a remote session has"
                + " nowhere to keep memory)");
    assertThat(recall.exitCode()).isZero();
    assertThat(recall.out()).isEmpty();
    assertThat(recall.err()).contains("auto memory is off (CLAUDE_CODE_REMOTE=true without");
  }

  @Test
  void aRemoteSessionsMemoryDirectoryReplacesTheConfigHomeAsTheBase() throws IOException {
    variables.remove("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE");
    variables.put("CLAUDE_CODE_REMOTE", "1");
    variables.put("CLAUDE_CODE_REMOTE_MEMORY_DIR", root.resolve("persistent").toString());
    Path project = Files.createDirectories(root.resolve("work/shop"));

    TmemRun run =
        tmem(environment(), "memory", "path", "--cwd", project.toString(), "--format", "json");

    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.path("enabled").asBoolean()).isTrue();
    assertThat(json.path("directory").asText())
        .isEqualTo(
            root.resolve("persistent/projects")
                .resolve(project.toRealPath().toString().replaceAll("[^A-Za-z0-9]", "-"))
                .resolve("memory")
                .toString());
    assertThat(json.path("source").asText())
        .isEqualTo("CLAUDE_CODE_REMOTE_MEMORY_DIR (" + project.toRealPath() + ")");
  }
}
