package dev.teammemory.daemon.hook;

import static org.assertj.core.api.Assertions.assertThat;

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

/** {@code tmem hook install --agent codex} and its uninstall, on a person's config.toml. */
class CodexInstallTest {

  private static final String PREFIX = "'/opt/my jdk/bin/java' -jar /opt/tmem/tmem.jar";
  private static final String MINE =
      "# my Codex settings\nmodel = \"o3\"   # the one I like\n\n[profiles.fast]\nmodel = \"o4-mini\"";

  @TempDir Path home;

  private Environment environment;
  private Path config;

  @BeforeEach
  void home() {
    config = home.resolve("codex/config.toml");
    environment =
        new Environment(
            Map.of(
                "CODEX_HOME", home.resolve("codex").toString(),
                "XDG_STATE_HOME", home.resolve("state").toString()),
            home,
            home);
  }

  @Test
  void installWritesTheTrustedBlockAndTheShimAndUninstallGivesTheFileBackByteForByte()
      throws IOException {
    Files.createDirectories(config.getParent());
    Files.writeString(config, MINE);
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
    CommandRun install = new CommandRun();

    assertThat(
            install.run(
                new HookInstallCommand(environment), "--agent", "codex", "--command", PREFIX))
        .as(install.err())
        .isZero();

    String shim = home.resolve("state/tmem/bin/tmem-hook").toString();
    assertThat(Path.of(shim)).isExecutable();
    String installed = Files.readString(config);
    assertThat(installed)
        .startsWith(MINE + "\n" + CodexConfig.BEGIN_AFTER_ADDED_NEWLINE + "\n")
        .contains("args = [\"-c\", \"exec '/opt/my jdk/bin/java' -jar /opt/tmem/tmem.jar mcp\"]")
        .contains("command = \"" + shim + " user-prompt --agent codex\"")
        .contains("[hooks.state.\"" + config + ":stop:0:0\"]");
    assertThat(Files.getPosixFilePermissions(config))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(install.out())
        .contains("trusted the hooks in " + config)
        .contains("start a new Codex session");

    CommandRun again = new CommandRun();
    again.run(new HookInstallCommand(environment), "--agent", "codex", "--command", PREFIX);
    assertThat(Files.readString(config)).isEqualTo(installed);
    assertThat(again.out()).contains("already in " + config);

    CommandRun uninstall = new CommandRun();
    assertThat(uninstall.run(new HookInstallCommand.Uninstall(environment), "--agent", "codex"))
        .isZero();
    assertThat(Files.readString(config)).isEqualTo(MINE);
    assertThat(uninstall.out())
        .isEqualTo("removed tmem's hooks and MCP server from " + config + "\n");
  }

  @Test
  void anUnknownAgentIsAUsageError() {
    CommandRun install = new CommandRun();

    assertThat(
            install.run(
                new HookInstallCommand(environment), "--agent", "cursor", "--command", PREFIX))
        .isEqualTo(2);
    assertThat(install.err()).contains("--agent is claude-code or codex, not cursor");
  }
}
