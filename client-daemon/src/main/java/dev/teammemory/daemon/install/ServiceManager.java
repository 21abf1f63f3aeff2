package dev.teammemory.daemon.install;

import dev.teammemory.daemon.command.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-user service managers the daemon installs into: systemd on Linux, launchd on macOS. Each
 * knows where its unit file goes, how to render it from the template next to this class, and the
 * commands that start and stop the service.
 */
enum ServiceManager {
  SYSTEMD("systemctl", "tmem.service") {
    @Override
    Path unitFile(Host host) {
      return host.configHome().resolve("systemd").resolve("user").resolve("tmem.service");
    }

    @Override
    List<List<String>> startCommands(Path unitFile) {
      return List.of(
          List.of("systemctl", "--user", "daemon-reload"),
          List.of("systemctl", "--user", "enable", "--now", "tmem.service"));
    }

    @Override
    List<List<String>> stopCommands(Path unitFile) {
      return List.of(List.of("systemctl", "--user", "disable", "--now", "tmem.service"));
    }

    @Override
    List<List<String>> afterRemovalCommands() {
      return List.of(List.of("systemctl", "--user", "daemon-reload"));
    }

    @Override
    List<String> followUp() {
      return List.of(
          "status: systemctl --user status tmem.service",
          "log:    journalctl --user -u tmem.service -f");
    }

    /**
     * The template quotes the paths in {@code ExecStart}, so spaces are fine; {@code %} is a
     * specifier and doubles. Quotes, backslashes and {@code $} would need systemd's escaping rules
     * in one setting and not in the other, so a path with them is refused rather than guessed.
     */
    @Override
    String escape(String name, String value) {
      rejectControlCharacters(name, value);
      for (char refused : new char[] {'"', '\\', '$'}) {
        if (value.indexOf(refused) >= 0) {
          throw UserError.usage(
              "the "
                  + name
                  + " path "
                  + value
                  + " contains "
                  + refused
                  + ", which a systemd unit cannot hold as written; move it to a plain path");
        }
      }
      return value.replace("%", "%%");
    }
  },

  LAUNCHD("launchctl", "dev.teammemory.tmem.plist") {
    @Override
    Path unitFile(Host host) {
      return host.environment()
          .home()
          .resolve("Library")
          .resolve("LaunchAgents")
          .resolve("dev.teammemory.tmem.plist");
    }

    @Override
    List<List<String>> startCommands(Path unitFile) {
      return List.of(List.of("launchctl", "load", "-w", unitFile.toString()));
    }

    @Override
    List<List<String>> stopCommands(Path unitFile) {
      return List.of(List.of("launchctl", "unload", "-w", unitFile.toString()));
    }

    @Override
    List<List<String>> afterRemovalCommands() {
      return List.of();
    }

    @Override
    List<String> followUp() {
      return List.of(
          "status: launchctl list dev.teammemory.tmem", "log:    ~/Library/Logs/tmem.log");
    }

    /** Paths travel as separate program arguments, so only XML needs escaping. */
    @Override
    String escape(String name, String value) {
      rejectControlCharacters(name, value);
      return value
          .replace("&", "&amp;")
          .replace("<", "&lt;")
          .replace(">", "&gt;")
          .replace("\"", "&quot;");
    }
  };

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z]+)}}");

  private final String controlCommand;
  private final String template;

  ServiceManager(String controlCommand, String template) {
    this.controlCommand = controlCommand;
    this.template = template;
  }

  /** systemd on Linux, launchd on macOS; any other system runs {@code tmem daemon} itself. */
  static ServiceManager forOperatingSystem(String operatingSystem) {
    String name = operatingSystem.toLowerCase(Locale.ROOT);
    if (name.contains("linux")) {
      return SYSTEMD;
    }
    if (name.contains("mac") || name.contains("darwin")) {
      return LAUNCHD;
    }
    throw UserError.usage(
        "tmem daemon install knows systemd (Linux) and launchd (macOS), not "
            + operatingSystem
            + "; start `tmem daemon` from this system's own service manager instead");
  }

  /** Where the unit file goes for this user. */
  abstract Path unitFile(Host host);

  /** Commands that load and start the installed unit, with the program name first. */
  abstract List<List<String>> startCommands(Path unitFile);

  /** Commands that stop the service and keep it from starting at the next login. */
  abstract List<List<String>> stopCommands(Path unitFile);

  /** Commands that make the manager forget a removed unit. */
  abstract List<List<String>> afterRemovalCommands();

  /** Lines telling a person how to watch the running service. */
  abstract List<String> followUp();

  /** A placeholder's value made safe for this unit format; refuses what it cannot hold. */
  abstract String escape(String name, String value);

  /** The program that controls this manager ({@code systemctl}, {@code launchctl}). */
  String controlCommand() {
    return controlCommand;
  }

  /** The unit this host's service runs: its java and jar, its settings file and its log. */
  String render(Host host) {
    Map<String, String> values =
        Map.of(
            "java", host.java().toString(),
            "jar", host.jar().toString(),
            "envFile", host.environmentFile().toString(),
            "logFile", host.environment().home().resolve("Library/Logs/tmem.log").toString());
    Matcher matcher = PLACEHOLDER.matcher(templateText());
    StringBuilder rendered = new StringBuilder();
    while (matcher.find()) {
      String name = matcher.group(1);
      String value = values.get(name);
      if (value == null) {
        throw new IllegalStateException("template " + template + " names unknown {{" + name + "}}");
      }
      matcher.appendReplacement(rendered, Matcher.quoteReplacement(escape(name, value)));
    }
    matcher.appendTail(rendered);
    return rendered.toString();
  }

  private String templateText() {
    try (InputStream in = ServiceManager.class.getResourceAsStream(template)) {
      if (in == null) {
        throw new IllegalStateException("template resource " + template + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the template " + template, e);
    }
  }

  private static void rejectControlCharacters(String name, String value) {
    if (value.chars().anyMatch(Character::isISOControl)) {
      throw UserError.usage(
          "the " + name + " path contains a control character; a service unit cannot hold it");
    }
  }
}
