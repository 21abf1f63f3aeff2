package dev.teammemory.daemon.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.cli.Tmem;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class DaemonInstallCommandTest {

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
  void installOnLinuxWritesTheUserUnitThatRunsThisJavaAndJar() throws IOException {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();

    String unit = Files.readString(systemdUnit());
    assertThat(unit)
        .startsWith("# Written by \"tmem daemon install\"")
        .contains("ExecStart=\"" + fixture.java + "\" -jar \"" + fixture.jar + "\" daemon\n")
        .contains("EnvironmentFile=-" + home.resolve(".config/tmem/env") + "\n")
        .contains("Restart=on-failure\n")
        .contains(
            "Environment=\"JDK_JAVA_OPTIONS=-XX:+UseSerialGC -Xms16m -XX:MinHeapFreeRatio=10"
                + " -XX:MaxHeapFreeRatio=30 -XX:TieredStopAtLevel=1\"\n")
        .contains("WantedBy=default.target\n")
        .doesNotContain("{{");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(systemdUnit())))
        .isEqualTo("rw-r--r--");
    assertThat(fixture.out.toString())
        .contains("Wrote " + systemdUnit() + ".\n")
        .contains(
            "Start it now and at every login (or rerun with --now):\n"
                + "  systemctl --user daemon-reload\n"
                + "  systemctl --user enable --now tmem.service\n");
    assertThat(fixture.calls()).isEmpty();
  }

  @Test
  void installHonoursXdgConfigHome() throws IOException {
    Path config = home.resolve("elsewhere");
    fixture.variables.put("XDG_CONFIG_HOME", config.toString());

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();

    assertThat(config.resolve("systemd/user/tmem.service"))
        .content()
        .contains("EnvironmentFile=-" + config.resolve("tmem/env") + "\n");
    assertThat(config.resolve("tmem/env")).exists();
    assertThat(systemdUnit()).doesNotExist();
  }

  @Test
  void relativeXdgConfigHomeIsIgnoredAsTheXdgRulesSay() {
    fixture.variables.put("XDG_CONFIG_HOME", "relative/config");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();

    assertThat(systemdUnit()).exists();
  }

  @Test
  void installCreatesAPrivateSettingsFileWithTheServerUrl() throws IOException {
    assertThat(
            fixture.run(
                new DaemonInstallCommand(fixture.linux()),
                "--server-url",
                "https://memory.example.com"))
        .isZero();

    Path settings = home.resolve(".config/tmem/env");
    assertThat(Files.readAllLines(settings)).contains("TMEM_SERVER_URL=https://memory.example.com");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)))
        .isEqualTo("rw-------");
    assertThat(fixture.out.toString())
        .contains("Wrote " + settings + " with TMEM_SERVER_URL=https://memory.example.com.\n");
  }

  @Test
  void serverUrlDefaultsToTmemServerUrl() throws IOException {
    fixture.variables.put("TMEM_SERVER_URL", "http://127.0.0.1:8080");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();

    assertThat(Files.readAllLines(home.resolve(".config/tmem/env")))
        .contains("TMEM_SERVER_URL=http://127.0.0.1:8080");
  }

  @Test
  void withoutAServerUrlTheSettingsFileSaysWhatToSet() throws IOException {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();

    Path settings = home.resolve(".config/tmem/env");
    assertThat(Files.readAllLines(settings))
        .contains("# TMEM_SERVER_URL=https://memory.example.com");
    assertThat(fixture.out.toString())
        .contains(
            "Wrote "
                + settings
                + "; the daemon uses the server you logged in to with `tmem login`, or set"
                + " TMEM_SERVER_URL there (your team's server) before starting it.\n");
  }

  @Test
  void anExistingSettingsFileIsKept() throws IOException {
    Path settings = home.resolve(".config/tmem/env");
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, "TMEM_SERVER_URL=https://old.example.com\n");

    assertThat(
            fixture.run(
                new DaemonInstallCommand(fixture.linux()),
                "--server-url",
                "https://new.example.com"))
        .isZero();

    assertThat(settings).hasContent("TMEM_SERVER_URL=https://old.example.com\n");
    assertThat(fixture.out.toString())
        .contains("Settings: " + settings + " (kept as it is).\n")
        .contains(
            "  to use https://new.example.com, set TMEM_SERVER_URL=https://new.example.com there"
                + " and restart the service.\n");
  }

  @Test
  void aServerUrlTheSettingsFileCannotHoldIsAUsageErrorAndWritesNothing() {
    int exitCode =
        fixture.run(
            new DaemonInstallCommand(fixture.linux()),
            "--server-url",
            "https://memory.example.com; rm -rf ~");

    assertThat(exitCode).isEqualTo(2);
    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: --server-url: https://memory.example.com; rm -rf ~ is not an http(s) URL such"
                + " as https://memory.example.com\n");
    assertThat(systemdUnit()).doesNotExist();
  }

  @Test
  void aBadTmemServerUrlIsNamedAsTheSource() {
    fixture.variables.put("TMEM_SERVER_URL", "memory.example.com");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isEqualTo(2);
    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: TMEM_SERVER_URL: memory.example.com is not an http(s) URL such as"
                + " https://memory.example.com\n");
  }

  @Test
  void installingTwiceLeavesTheUnitAsItIs() throws IOException {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();
    String first = Files.readString(systemdUnit());

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();

    assertThat(systemdUnit()).hasContent(first);
    assertThat(fixture.out.toString())
        .contains(systemdUnit() + " is already installed and up to date.\n");
  }

  @Test
  void aDifferentExistingUnitIsNotReplacedWithoutForce() throws IOException {
    Files.createDirectories(systemdUnit().getParent());
    Files.writeString(systemdUnit(), "[Service]\nExecStart=/usr/local/bin/my-own-tmem\n");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isEqualTo(1);

    assertThat(systemdUnit()).hasContent("[Service]\nExecStart=/usr/local/bin/my-own-tmem\n");
    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: "
                + systemdUnit()
                + " exists and differs from the unit this tmem writes; compare it with"
                + " `tmem daemon install --print`, then rerun with --force to replace it\n");
  }

  @Test
  void forceReplacesADifferentUnit() throws IOException {
    Files.createDirectories(systemdUnit().getParent());
    Files.writeString(systemdUnit(), "[Service]\nExecStart=/usr/local/bin/my-own-tmem\n");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()), "--force")).isZero();

    assertThat(systemdUnit()).content().contains("-jar \"" + fixture.jar + "\" daemon");
    assertThat(fixture.out.toString()).contains("Replaced " + systemdUnit() + ".\n");
  }

  @Test
  void aMovedJarMakesADifferentUnitThatNeedsForce() throws IOException {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()))).isZero();
    Host moved = fixture.withJar("Linux", home.resolve("new/tmem.jar"));

    assertThat(fixture.run(new DaemonInstallCommand(moved))).isEqualTo(1);
    assertThat(fixture.run(new DaemonInstallCommand(moved), "--force")).isZero();

    assertThat(systemdUnit()).content().contains(home.resolve("new/tmem.jar").toString());
  }

  @Test
  void printShowsTheUnitAndWritesNothing() throws IOException {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()), "--print")).isZero();

    assertThat(fixture.out.toString())
        .isEqualTo(ServiceManager.SYSTEMD.render(fixture.linux()))
        .contains("ExecStart=");
    assertThat(systemdUnit()).doesNotExist();
    assertThat(home.resolve(".config/tmem/env")).doesNotExist();
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void nowRunsSystemctlFromPathToEnableAndStartTheService() throws IOException {
    fixture.fakeControlCommand("systemctl", 0, "");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()), "--now")).isZero();

    assertThat(fixture.calls())
        .isEqualTo("--user daemon-reload\n--user enable --now tmem.service\n");
    assertThat(fixture.out.toString())
        .contains(
            "  ran: systemctl --user daemon-reload\n"
                + "  ran: systemctl --user enable --now tmem.service\n"
                + "The daemon runs now and at every login.\n"
                + "  status: systemctl --user status tmem.service\n"
                + "  log:    journalctl --user -u tmem.service -f\n");
  }

  @Test
  void nowWithoutSystemctlKeepsTheUnitAndSaysWhatToRun() {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()), "--now")).isEqualTo(1);

    assertThat(systemdUnit()).exists();
    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: systemctl is not on PATH, so the service was not started; start it yourself:"
                + " systemctl --user daemon-reload && systemctl --user enable --now"
                + " tmem.service\n");
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void nowReportsTheCommandThatFailedAndItsFirstLine() throws IOException {
    fixture.fakeControlCommand("systemctl", 1, "Failed to connect to bus: No medium found");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.linux()), "--now")).isEqualTo(1);

    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: systemctl --user daemon-reload failed with exit code 1: Failed to connect to"
                + " bus: No medium found\n");
  }

  @Test
  void systemdPathsHaveTheirPercentSignsDoubled() throws IOException {
    Host host = fixture.withJar("Linux", home.resolve("100% tmem/tmem.jar"));

    assertThat(fixture.run(new DaemonInstallCommand(host))).isZero();

    assertThat(systemdUnit())
        .content()
        .contains("-jar \"" + home.resolve("100%% tmem/tmem.jar") + "\" daemon");
  }

  @Test
  void aPathSystemdCannotHoldIsAUsageError() {
    Host host = fixture.withJar("Linux", home.resolve("$HOME/tmem.jar"));

    assertThat(fixture.run(new DaemonInstallCommand(host))).isEqualTo(2);

    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: the jar path "
                + home.resolve("$HOME/tmem.jar")
                + " contains $, which a systemd unit cannot hold as written; move it to a plain"
                + " path\n");
    assertThat(systemdUnit()).doesNotExist();
  }

  @Test
  void installOnMacWritesTheLaunchAgent() throws Exception {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.mac()))).isZero();

    Path agent = home.resolve("Library/LaunchAgents/dev.teammemory.tmem.plist");
    PropertyList plist = PropertyList.parse(agent);
    assertThat(plist.string("Label")).isEqualTo("dev.teammemory.tmem");
    assertThat(plist.strings("ProgramArguments"))
        .endsWith(
            "tmem",
            home.resolve(".config/tmem/env").toString(),
            fixture.java.toString(),
            "-jar",
            fixture.jar.toString(),
            "daemon");
    assertThat(plist.string("StandardOutPath"))
        .isEqualTo(home.resolve("Library/Logs/tmem.log").toString());
    assertThat(fixture.out.toString()).contains("  launchctl load -w " + agent + "\n");
  }

  @Test
  void launchAgentPathsAreEscapedForXml() throws Exception {
    Path jar = home.resolve("R&D <tools>/tmem.jar");

    assertThat(fixture.run(new DaemonInstallCommand(fixture.withJar("Mac OS X", jar)))).isZero();

    PropertyList plist =
        PropertyList.parse(home.resolve("Library/LaunchAgents/dev.teammemory.tmem.plist"));
    assertThat(plist.strings("ProgramArguments")).contains(jar.toString());
  }

  @Test
  @EnabledOnOs({OS.LINUX, OS.MAC})
  void launchAgentReadsTheSettingsFileAtEveryStart() throws Exception {
    Path output = home.resolve("started.txt");
    InstallFixture.executable(
        fixture.java, "#!/bin/sh\necho \"$TMEM_SERVER_URL $*\" > '" + output + "'\n");
    assertThat(
            fixture.run(
                new DaemonInstallCommand(fixture.mac()),
                "--server-url",
                "https://memory.example.com"))
        .isZero();
    PropertyList plist =
        PropertyList.parse(home.resolve("Library/LaunchAgents/dev.teammemory.tmem.plist"));

    // Start the agent's program as launchd would: its arguments, an environment without the URL.
    ProcessBuilder launchd = new ProcessBuilder(plist.strings("ProgramArguments"));
    launchd.environment().remove("TMEM_SERVER_URL");
    Process process = launchd.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).isZero();
    assertThat(output).hasContent("https://memory.example.com -jar " + fixture.jar + " daemon\n");
  }

  @Test
  void windowsIsAUsageErrorThatSaysWhatToDoInstead() {
    assertThat(fixture.run(new DaemonInstallCommand(fixture.host("Windows 11")))).isEqualTo(2);

    assertThat(fixture.err.toString())
        .isEqualTo(
            "tmem: tmem daemon install knows systemd (Linux) and launchd (macOS), not Windows 11;"
                + " start `tmem daemon` from this system's own service manager instead\n");
  }

  @Test
  void installAndUninstallAreSubcommandsOfTmemDaemon() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int install =
        Tmem.run(
            new String[] {"daemon", "install", "--help"},
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    int uninstall =
        Tmem.run(
            new String[] {"daemon", "uninstall", "--help"},
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(install).isZero();
    assertThat(uninstall).isZero();
    assertThat(out.toString())
        .contains("Usage: tmem daemon install")
        .contains("Usage: tmem daemon uninstall");
  }

  @Test
  void runningFromAClassesFolderIsAUsageError() {
    // The tests run from target/classes, not from tmem.jar: no service could start that.
    assertThat(fixture.run(new DaemonInstallCommand(), "--print")).isEqualTo(2);

    assertThat(fixture.err.toString())
        .startsWith("tmem: this tmem runs from ")
        .endsWith(
            ", not from a jar a service can start; build and use the packaged one:"
                + " ./tmem daemon install\n");
  }
}
