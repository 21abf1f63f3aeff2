package dev.teammemory.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Checks the daemon's service units: the systemd user unit read as systemd reads INI-like text, the
 * launchd agent parsed as the XML property list it is, and both kept in step with the templates
 * {@code tmem daemon install} renders.
 */
class ServiceUnitsTest {

  /** The idle-footprint flags docs/benchmarks.md ("Daemon sync") measured for the daemon. */
  private static final String IDLE_JVM_FLAGS =
      "-XX:+UseSerialGC -Xms16m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:TieredStopAtLevel=1";

  private final Path systemd = DeployFiles.deploy().resolve("systemd/tmem.service");
  private final Path launchd = DeployFiles.deploy().resolve("launchd/dev.teammemory.tmem.plist");
  private final Path templates =
      DeployFiles.repository()
          .resolve("client-daemon/src/main/resources/dev/teammemory/daemon/install");

  /** section -> key -> value; a unit's comments and blank lines are left out. */
  static Map<String, Map<String, String>> unit(Path file) {
    Map<String, Map<String, String>> sections = new LinkedHashMap<>();
    Map<String, String> current = null;
    for (String line : DeployFiles.read(file).lines().toList()) {
      String stripped = line.strip();
      if (stripped.isEmpty() || stripped.startsWith("#") || stripped.startsWith(";")) {
        continue;
      }
      if (stripped.startsWith("[") && stripped.endsWith("]")) {
        current = new LinkedHashMap<>();
        sections.put(stripped.substring(1, stripped.length() - 1), current);
        continue;
      }
      int equals = stripped.indexOf('=');
      if (current == null || equals <= 0) {
        throw new AssertionError(file.getFileName() + ": not a unit line: " + line);
      }
      String key = stripped.substring(0, equals);
      if (current.put(key, stripped.substring(equals + 1)) != null) {
        throw new AssertionError(file.getFileName() + ": " + key + " is set twice");
      }
    }
    return sections;
  }

  @Test
  void systemdUnitRunsTheDaemonAndRestartsItAfterAFailure() {
    Map<String, Map<String, String>> unit = unit(systemd);

    assertThat(unit).containsOnlyKeys("Unit", "Service", "Install");
    Map<String, String> service = unit.get("Service");
    assertThat(service.get("ExecStart")).isEqualTo("%h/.local/bin/tmem daemon");
    assertThat(service.get("Restart")).isEqualTo("on-failure");
    assertThat(service.get("RestartPreventExitStatus"))
        .as("a usage error (2) is not retried")
        .isEqualTo("2");
    assertThat(service.get("EnvironmentFile")).isEqualTo("-%h/.config/tmem/env");
    assertThat(unit.get("Install").get("WantedBy")).isEqualTo("default.target");
    assertThat(service.get("Environment")).isEqualTo("\"JDK_JAVA_OPTIONS=" + IDLE_JVM_FLAGS + "\"");
  }

  @Test
  void installedSystemdUnitDiffersFromTheReferenceOnlyInItsPaths() {
    Map<String, Map<String, String>> reference = unit(systemd);
    Map<String, Map<String, String>> template = unit(templates.resolve("tmem.service"));

    assertThat(template.keySet()).isEqualTo(reference.keySet());
    for (String section : reference.keySet()) {
      Map<String, String> expected = new LinkedHashMap<>(reference.get(section));
      Map<String, String> actual = new LinkedHashMap<>(template.get(section));
      if (section.equals("Service")) {
        assertThat(actual.remove("ExecStart")).isEqualTo("\"{{java}}\" -jar \"{{jar}}\" daemon");
        assertThat(actual.remove("EnvironmentFile")).isEqualTo("-{{envFile}}");
        expected.remove("ExecStart");
        expected.remove("EnvironmentFile");
      }
      assertThat(actual).as(section).isEqualTo(expected);
    }
  }

  @Test
  void launchAgentStartsTheDaemonAtLoginAndAfterACrash() throws Exception {
    PropertyList agent = PropertyList.parse(launchd);

    assertThat(agent.string("Label") + ".plist").isEqualTo(launchd.getFileName().toString());
    List<String> arguments = agent.strings("ProgramArguments");
    assertThat(arguments.subList(0, 2)).containsExactly("/bin/sh", "-c");
    assertThat(arguments.get(2))
        .contains(". \"$env_file\"")
        .contains("exec \"$HOME/.local/bin/tmem\" daemon");
    assertThat(agent.value("RunAtLoad")).isEqualTo("true");
    assertThat(agent.value("KeepAlive")).isEqualTo("{SuccessfulExit=false}");
    assertThat(agent.value("EnvironmentVariables"))
        .isEqualTo("{JDK_JAVA_OPTIONS=" + IDLE_JVM_FLAGS + "}");
  }

  @Test
  void installedLaunchAgentDiffersFromTheReferenceOnlyInHowItFindsFiles() throws Exception {
    PropertyList reference = PropertyList.parse(launchd);
    PropertyList template = PropertyList.parse(templates.resolve("dev.teammemory.tmem.plist"));

    assertThat(template.keys())
        .containsExactlyInAnyOrderElementsOf(
            concat(reference.keys(), List.of("StandardOutPath", "StandardErrorPath")));
    for (String key : reference.keys()) {
      if (!key.equals("ProgramArguments")) {
        assertThat(template.value(key)).as(key).isEqualTo(reference.value(key));
      }
    }
    assertThat(template.strings("ProgramArguments"))
        .endsWith("tmem", "{{envFile}}", "{{java}}", "-jar", "{{jar}}", "daemon");
  }

  private static List<String> concat(List<String> first, List<String> second) {
    return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
  }
}
