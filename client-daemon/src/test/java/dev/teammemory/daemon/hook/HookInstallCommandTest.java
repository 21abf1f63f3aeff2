package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.testing.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HookInstallCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PREFIX = "'/opt/my jdk/bin/java' -jar /opt/tmem/tmem.jar";
  private static final String EXISTING =
      """
      {
        "model": "opus",
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {
          "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}],
          "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}]
        }
      }
      """;

  @TempDir Path home;

  private final CommandRun tmem = new CommandRun();
  private Path settings;
  private Environment environment;

  @BeforeEach
  void home() {
    settings = home.resolve("config/settings.json");
    environment =
        new Environment(Map.of("CLAUDE_CONFIG_DIR", home.resolve("config").toString()), home, home);
  }

  private String shim() {
    return home.resolve(".local/state/tmem/bin/tmem-hook").toString();
  }

  private JsonNode settings() throws IOException {
    return JSON.readTree(Files.readString(settings));
  }

  @Test
  void installAddsTheFourHooksAndKeepsEverythingElse() throws IOException {
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, EXISTING);
    Files.setPosixFilePermissions(settings, PosixFilePermissions.fromString("rw-------"));

    int exit = tmem.run(new HookInstallCommand(environment), "--command", PREFIX);

    assertThat(exit).isZero();
    JsonNode hooks = settings().path("hooks");
    assertThat(settings().path("model").asText()).isEqualTo("opus");
    assertThat(settings().path("permissions").path("allow").get(0).asText())
        .isEqualTo("Bash(npm test)");
    assertThat(hooks.path("PostToolUse").get(0).path("hooks").get(0).path("command").asText())
        .isEqualTo("prettier --write");
    assertThat(hooks.path("SessionStart")).hasSize(2);
    assertThat(hooks.path("SessionStart").get(0).path("hooks").get(0).path("command").asText())
        .isEqualTo("echo hello");
    assertThat(hooks.path("SessionStart").get(1).path("hooks").get(0).path("command").asText())
        .isEqualTo(shim() + " session-start");
    assertThat(hooks.path("UserPromptSubmit").get(0).path("hooks").get(0).path("command").asText())
        .isEqualTo(shim() + " user-prompt");
    assertThat(hooks.path("PreCompact").get(0).path("hooks").get(0).path("command").asText())
        .isEqualTo(shim() + " pre-compact");
    assertThat(hooks.path("Stop").get(0).path("hooks").get(0).path("type").asText())
        .isEqualTo("command");
    assertThat(Files.readString(settings.resolveSibling("settings.json.bak"))).isEqualTo(EXISTING);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)))
        .isEqualTo("rw-------");
    assertThat(tmem.out())
        .contains(
            "added tmem hooks for SessionStart, UserPromptSubmit, PreCompact, Stop to "
                + settings
                + "\n");
  }

  @Test
  void installingTwiceAddsNoDuplicates() throws IOException {
    tmem.run(new HookInstallCommand(environment), "--command", PREFIX);
    String once = Files.readString(settings);
    CommandRun again = new CommandRun();

    assertThat(again.run(new HookInstallCommand(environment), "--command", PREFIX)).isZero();

    assertThat(Files.readString(settings)).isEqualTo(once);
    assertThat(again.out())
        .endsWith("tmem's hooks are already in " + settings + "; nothing changed\n");
  }

  @Test
  void installCreatesTheSettingsFileWhenThereIsNone() throws IOException {
    assertThat(tmem.run(new HookInstallCommand(environment), "--command", PREFIX)).isZero();

    assertThat(settings().path("hooks").size()).isEqualTo(4);
    assertThat(settings.resolveSibling("settings.json.bak")).doesNotExist();
  }

  @Test
  void invalidSettingsAreLeftAloneWithExitCodeOne() throws IOException {
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, "{\"model\": \"opus\",\n");

    int exit = tmem.run(new HookInstallCommand(environment), "--command", PREFIX);

    assertThat(exit).isEqualTo(1);
    assertThat(tmem.err())
        .isEqualTo(
            "tmem: "
                + settings
                + " is not valid JSON (line 2); fix it first; nothing was changed\n");
    assertThat(Files.readString(settings)).isEqualTo("{\"model\": \"opus\",\n");
  }

  @Test
  void dryRunPrintsTheSettingsAndWritesNothing() throws IOException {
    assertThat(tmem.run(new HookInstallCommand(environment), "--command", PREFIX, "--dry-run"))
        .isZero();

    assertThat(
            JSON.readTree(tmem.out())
                .path("hooks")
                .path("Stop")
                .get(0)
                .path("hooks")
                .get(0)
                .path("command")
                .asText())
        .isEqualTo(shim() + " stop");
    assertThat(settings).doesNotExist();
    assertThat(Path.of(shim())).doesNotExist();
  }

  @Test
  void installWritesAShimThatFallsBackToTheGivenCommand() throws IOException {
    assertThat(tmem.run(new HookInstallCommand(environment), "--command", PREFIX)).isZero();

    Path shim = Path.of(shim());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(shim)))
        .isEqualTo("rwx------");
    assertThat(Files.readString(shim))
        .startsWith("#!/bin/sh\n")
        .contains(
            "state=" + home.resolve(".local/state/tmem"),
            "| " + PREFIX + " hook \"$event\" \"$@\"",
            "--config \"$state/api.curl\"");
  }

  @Test
  void thePrivateIndexSettingGoesOnTheSessionStartHookAndReplacesAnEarlierInstall()
      throws IOException {
    Files.createDirectories(settings.getParent());
    Files.writeString(
        settings,
        """
        {"hooks": {"SessionStart": [{"matcher": "", "hooks": [
          {"type": "command", "command": "%s hook session-start"}]}]}}
        """
            .formatted(PREFIX.replace("'", "'")));
    tmem.run(new HookInstallCommand(environment), "--command", PREFIX);

    assertThat(
            new CommandRun()
                .run(new HookInstallCommand(environment), "--command", PREFIX, "--private-index"))
        .isZero();

    JsonNode sessionStart = settings().path("hooks").path("SessionStart");
    assertThat(sessionStart).hasSize(1);
    assertThat(sessionStart.get(0).path("hooks").get(0).path("command").asText())
        .isEqualTo(shim() + " session-start --private-index");
    assertThat(
            settings()
                .path("hooks")
                .path("Stop")
                .get(0)
                .path("hooks")
                .get(0)
                .path("command")
                .asText())
        .isEqualTo(shim() + " stop");
  }

  @Test
  void uninstallRemovesOnlyTmemsHooks() throws IOException {
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, EXISTING);
    tmem.run(new HookInstallCommand(environment), "--command", PREFIX);

    assertThat(
            new CommandRun()
                .run(new HookInstallCommand.Uninstall(environment), "--command", PREFIX))
        .isZero();

    assertThat(settings()).isEqualTo(JSON.readTree(EXISTING));
  }

  @Test
  void uninstallRemovesTheShimTheHooksRan() throws IOException {
    tmem.run(new HookInstallCommand(environment), "--command", PREFIX);
    Path shim = Path.of(shim());
    assertThat(shim).isRegularFile();

    CommandRun uninstall = new CommandRun();
    assertThat(uninstall.run(new HookInstallCommand.Uninstall(environment), "--command", PREFIX))
        .isZero();

    assertThat(shim).doesNotExist();
    assertThat(uninstall.out()).contains("removed the hook shim " + shim);
  }
}
