package dev.teammemory.daemon.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class DaemonUninstallCommandTest {

  @TempDir Path home;
  private InstallFixture fixture;

  @BeforeEach
  void setUp() throws IOException {
    fixture = new InstallFixture(home);
  }

  private Path systemdUnit() {
    return home.resolve(".config/systemd/user/tmem.service");
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void uninstallStopsTheServiceRemovesTheUnitAndKeepsTheSettings() throws IOException {
    assertThat(
            fixture.run(
                new DaemonInstallCommand(fixture.linux()),
                "--server-url",
                "https://memory.example.com"))
        .isZero();
    fixture.fakeControlCommand("systemctl", 0, "");

    assertThat(fixture.run(new DaemonUninstallCommand(fixture.linux()))).isZero();

    assertThat(systemdUnit()).doesNotExist();
    assertThat(home.resolve(".config/tmem/env")).exists();
    assertThat(fixture.calls())
        .isEqualTo("--user disable --now tmem.service\n--user daemon-reload\n");
    assertThat(fixture.out.toString())
        .contains(
            "  ran: systemctl --user disable --now tmem.service\n"
                + "Removed "
                + systemdUnit()
                + ".\n"
                + "  ran: systemctl --user daemon-reload\n"
                + "Kept your settings in "
                + home.resolve(".config/tmem/env")
                + ".\n");
  }

  @Test
  void withoutSystemctlUninstallStillRemovesTheUnit() {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();

    assertThat(fixture.run(new DaemonUninstallCommand(fixture.linux()))).isZero();

    assertThat(systemdUnit()).doesNotExist();
    assertThat(fixture.out.toString()).contains("systemctl is not on PATH: nothing to stop.\n");
  }

  @Test
  void nothingInstalledIsNotAnError() {
    assertThat(fixture.run(new DaemonUninstallCommand(fixture.linux()))).isZero();

    assertThat(fixture.out.toString())
        .isEqualTo("Nothing to uninstall: " + systemdUnit() + " does not exist.\n");
  }

  @Test
  void aUnitTheInstallDidNotWriteStaysUnlessForced() throws IOException {
    Files.createDirectories(systemdUnit().getParent());
    Files.writeString(systemdUnit(), "[Service]\nExecStart=/usr/local/bin/my-own-tmem\n");

    assertThat(fixture.run(new DaemonUninstallCommand(fixture.linux()))).isEqualTo(1);
    assertThat(systemdUnit()).exists();
    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: "
                + systemdUnit()
                + " was not written by `tmem daemon install`; remove it yourself, or rerun with"
                + " --force\n");

    assertThat(fixture.run(new DaemonUninstallCommand(fixture.linux()), "--force")).isZero();
    assertThat(systemdUnit()).doesNotExist();
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void onMacUninstallUnloadsTheAgentAndRemovesIt() throws IOException {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.mac()))).isZero();
    fixture.fakeControlCommand("launchctl", 0, "");
    Path agent = home.resolve("Library/LaunchAgents/dev.teammemory.tmem.plist");

    assertThat(fixture.run(new DaemonUninstallCommand(fixture.mac()))).isZero();

    assertThat(agent).doesNotExist();
    assertThat(fixture.calls()).isEqualTo("unload -w " + agent + "\n");
  }
}
