package dev.teammemory.daemon.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryLocationTest {

  @TempDir Path root;
  private Path home;
  private Path project;
  private final Map<String, String> variables = new HashMap<>();

  @BeforeEach
  void layout() throws IOException {
    home = Files.createDirectories(root.resolve("home"));
    project = Files.createDirectories(root.resolve("code/shop"));
    variables.put("CLAUDE_CONFIG_DIR", root.resolve("config").toString());
  }

  private MemoryLocation resolve() {
    return MemoryLocation.resolve(new Environment(variables, home, project));
  }

  private Path defaultDirectory(Path base) throws IOException {
    return root.resolve("config/projects")
        .resolve(ClaudeLayout.sanitize(base.toRealPath().toString()))
        .resolve("memory");
  }

  private void settings(Path file, String json) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, json);
  }

  @Test
  void outsideGitTheWorkingDirectoryNamesTheFolder() throws IOException {
    MemoryLocation location = resolve();

    assertThat(location.directory()).isEqualTo(defaultDirectory(project));
    assertThat(location.enabled()).isTrue();
    assertThat(location.index()).isEqualTo(location.directory().resolve("MEMORY.md"));
    assertThat(location.teamDirectory()).isEqualTo(location.directory().resolve("team"));
  }

  @Test
  void insideGitTheRepositoryRootNamesTheFolder() throws IOException {
    Files.createDirectories(project.resolve(".git"));
    Path nested = Files.createDirectories(project.resolve("src/main"));

    MemoryLocation location = MemoryLocation.resolve(new Environment(variables, home, nested));

    assertThat(location.directory()).isEqualTo(defaultDirectory(project));
  }

  @Test
  void worktreesShareTheMainCheckoutsFolder() throws IOException {
    Path gitDir = Files.createDirectories(project.resolve(".git/worktrees/feature"));
    Files.writeString(gitDir.resolve("commondir"), "../..\n");
    Path worktree = Files.createDirectories(root.resolve("code/shop-feature"));
    Files.writeString(worktree.resolve(".git"), "gitdir: " + gitDir + "\n");

    MemoryLocation location = MemoryLocation.resolve(new Environment(variables, home, worktree));

    assertThat(location.directory()).isEqualTo(defaultDirectory(project));
  }

  @Test
  void aSubmoduleKeepsItsOwnFolder() throws IOException {
    Files.createDirectories(project.resolve(".git/modules/lib"));
    Path submodule = Files.createDirectories(project.resolve("lib"));
    Files.writeString(submodule.resolve(".git"), "gitdir: ../.git/modules/lib\n");

    assertThat(MemoryLocation.resolve(new Environment(variables, home, submodule)).directory())
        .isEqualTo(defaultDirectory(submodule));
  }

  @Test
  void theOverrideVariableWinsAndIsUsedAsGiven() throws IOException {
    variables.put("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", root.resolve("space/memory/").toString());
    settings(home.resolve("../config/settings.json"), "{\"autoMemoryDirectory\":\"~/elsewhere\"}");

    MemoryLocation location = resolve();

    assertThat(location.directory()).isEqualTo(root.resolve("space/memory"));
    assertThat(location.source()).isEqualTo("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE");
  }

  @Test
  void userAndLocalSettingsMayMoveTheFolderWithTildeExpansion() throws IOException {
    settings(root.resolve("config/settings.json"), "{\"autoMemoryDirectory\":\"~/notes/memory\"}");
    assertThat(resolve().directory()).isEqualTo(home.resolve("notes/memory"));

    settings(
        project.resolve(".claude/settings.local.json"),
        "{\"autoMemoryDirectory\":\"" + root.resolve("local-memory") + "\"}");
    MemoryLocation local = resolve();
    assertThat(local.directory()).isEqualTo(root.resolve("local-memory"));
    assertThat(local.source())
        .startsWith("autoMemoryDirectory in ")
        .endsWith("settings.local.json");
  }

  @Test
  void aRepositorysCommittedSettingsCannotMoveTheFolder() throws IOException {
    settings(project.resolve(".claude/settings.json"), "{\"autoMemoryDirectory\":\"~/.ssh\"}");

    assertThat(resolve().directory()).isEqualTo(defaultDirectory(project));
  }

  @Test
  void dangerousValuesAreIgnoredWithAWarning() throws IOException {
    variables.put("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "relative/memory");
    settings(root.resolve("config/settings.json"), "{\"autoMemoryDirectory\":\"~/\"}");

    MemoryLocation location = resolve();

    assertThat(location.directory()).isEqualTo(defaultDirectory(project));
    assertThat(location.warnings())
        .containsExactly(
            "ignored CLAUDE_COWORK_MEMORY_PATH_OVERRIDE=relative/memory: it must be an absolute path deeper than the filesystem root (settings may also use ~/folder)",
            "ignored autoMemoryDirectory \"~/\" in "
                + root.resolve("config/settings.json")
                + ": it must be an absolute path deeper than the filesystem root (settings may also use ~/folder)");
    assertThat(MemoryLocation.validate("/", false, home)).isEmpty();
    assertThat(MemoryLocation.validate("~/..", true, home)).isEmpty();
    assertThat(MemoryLocation.validate("/a\0b", false, home)).isEmpty();
    assertThat(MemoryLocation.validate("~/x", false, home)).isEmpty();
  }

  @Test
  void aBrokenSettingsFileIsReportedNotFatal() throws IOException {
    settings(root.resolve("config/settings.json"), "{ not json");

    MemoryLocation location = resolve();

    assertThat(location.enabled()).isTrue();
    assertThat(location.warnings())
        .singleElement()
        .asString()
        .startsWith("ignored " + root.resolve("config/settings.json"));
  }

  @Test
  void theDisableVariableTurnsMemoryOffAndItsFalsyValueForcesItOn() throws IOException {
    settings(root.resolve("config/settings.json"), "{\"autoMemoryEnabled\":false}");
    variables.put("CLAUDE_CODE_SIMPLE", "1");

    variables.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "true");
    assertThat(resolve().disabledBy()).contains("CLAUDE_CODE_DISABLE_AUTO_MEMORY=true");

    variables.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "0");
    assertThat(resolve().enabled()).isTrue();
  }

  @Test
  void simpleModeTurnsMemoryOff() {
    variables.put("CLAUDE_CODE_SIMPLE", "yes");

    assertThat(resolve().disabledBy()).contains("CLAUDE_CODE_SIMPLE=yes");
  }

  @Test
  void theSettingTurnsMemoryOffFromAnySettingsFileTheLocalOneWinning() throws IOException {
    settings(project.resolve(".claude/settings.json"), "{\"autoMemoryEnabled\":false}");
    assertThat(resolve().disabledBy())
        .contains(
            "autoMemoryEnabled: false in " + project.toRealPath().resolve(".claude/settings.json"));

    settings(project.resolve(".claude/settings.local.json"), "{\"autoMemoryEnabled\":true}");
    assertThat(resolve().enabled()).isTrue();
  }

  @Test
  void anUnrelatedValueOfTheSwitchChangesNothing() {
    variables.put("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "maybe");

    assertThat(resolve().enabled()).isTrue();
  }

  @Test
  void aSettingsFileWithAByteThatIsNotUtf8StillTurnsMemoryOff() throws IOException {
    Path file = root.resolve("config/settings.json");
    Files.createDirectories(file.getParent());
    Files.write(
        file,
        "{\"theme\":\"caf\u00e9\",\"autoMemoryEnabled\":false}"
            .getBytes(StandardCharsets.ISO_8859_1));

    MemoryLocation location = resolve();

    assertThat(location.disabledBy()).contains("autoMemoryEnabled: false in " + file);
    assertThat(location.warnings()).isEmpty();
  }

  @Test
  void aSettingsFileThatIsAFifoIsReportedNotWaitedOn() throws Exception {
    Path file = Files.createDirectories(root.resolve("config")).resolve("settings.json");
    assertThat(new ProcessBuilder("mkfifo", file.toString()).start().waitFor()).isZero();

    MemoryLocation location = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> resolve());

    assertThat(location.enabled()).isTrue();
    assertThat(location.warnings())
        .containsExactly("ignored " + file + ": not a regular file: " + file);
  }
}
