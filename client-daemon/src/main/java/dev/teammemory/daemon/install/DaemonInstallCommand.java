package dev.teammemory.daemon.install;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tmem daemon install}: writes a systemd user unit (Linux) or a launchd agent (macOS) that
 * runs {@code tmem daemon} with this java and this {@code tmem.jar} at every login, and creates the
 * settings file it reads. Never replaces a different unit without {@code --force}.
 */
@Command(
    name = "install",
    mixinStandardHelpOptions = true,
    description = {
      "Run the daemon as a service at every login: writes a systemd user unit"
          + " (~/.config/systemd/user/tmem.service) on Linux or a launchd agent"
          + " (~/Library/LaunchAgents/dev.teammemory.tmem.plist) on macOS.",
      "The service reads its settings (TMEM_SERVER_URL) from ~/.config/tmem/env."
    })
public final class DaemonInstallCommand extends ServiceCommand {

  /** What the env file can hold and /bin/sh can read back unquoted. */
  private static final Pattern SERVER_URL =
      Pattern.compile("https?://[A-Za-z0-9._~:@%+\\[\\]-]+(/[A-Za-z0-9._~:@%+/-]*)?");

  @Option(names = "--now", description = "Also start the service now (and at every login).")
  boolean now;

  @Option(
      names = "--force",
      description = "Replace an existing unit file that differs from the one this tmem writes.")
  boolean force;

  @Option(names = "--print", description = "Print the unit file instead of writing it.")
  boolean print;

  @Option(
      names = "--server-url",
      paramLabel = "URL",
      description =
          "Your team's server, written to a new settings file (default: $TMEM_SERVER_URL).")
  String serverUrl;

  public DaemonInstallCommand() {}

  DaemonInstallCommand(Host host) {
    super(host);
  }

  @Override
  Integer run(Host host, ServiceManager manager, PrintWriter out) throws IOException {
    String unit = manager.render(host);
    if (print) {
      out.print(unit);
      out.flush();
      return ExitCode.OK;
    }
    Optional<String> server = serverUrl(host);
    Path unitPath = manager.unitFile(host);
    switch (new UnitFile(unitPath).install(unit, force)) {
      case UnitFile.Installation.Created created -> out.println("Wrote " + unitPath + ".");
      case UnitFile.Installation.Replaced replaced -> out.println("Replaced " + unitPath + ".");
      case UnitFile.Installation.Unchanged unchanged ->
          out.println(unitPath + " is already installed and up to date.");
      case UnitFile.Installation.Conflict conflict ->
          throw UserError.problem(
              unitPath
                  + " exists and differs from the unit this tmem writes; compare it with"
                  + " `tmem daemon install --print`, then rerun with --force to replace it");
    }
    out.println("  runs: " + host.java() + " -jar " + host.jar() + " daemon");
    settings(host, server, out);
    if (now) {
      if (!ServiceControl.available(host, manager)) {
        throw UserError.problem(
            manager.controlCommand()
                + " is not on PATH, so the service was not started; start it yourself: "
                + String.join(
                    " && ",
                    manager.startCommands(unitPath).stream()
                        .map(command -> String.join(" ", command))
                        .toList()));
      }
      ServiceControl.runAll(host, manager.startCommands(unitPath), out);
      out.println("The daemon runs now and at every login.");
      manager.followUp().forEach(line -> out.println("  " + line));
    } else {
      out.println("Start it now and at every login (or rerun with --now):");
      manager
          .startCommands(unitPath)
          .forEach(command -> out.println("  " + String.join(" ", command)));
    }
    out.flush();
    return ExitCode.OK;
  }

  /** {@code --server-url}, else {@code TMEM_SERVER_URL}, checked so the env file can hold it. */
  private Optional<String> serverUrl(Host host) {
    String source = "--server-url";
    Optional<String> value = Optional.ofNullable(serverUrl).map(String::strip);
    if (value.isEmpty()) {
      source = "TMEM_SERVER_URL";
      value = host.environment().get("TMEM_SERVER_URL").map(String::strip);
    }
    if (value.isPresent() && !SERVER_URL.matcher(value.get()).matches()) {
      throw UserError.usage(
          source
              + ": "
              + value.get()
              + " is not an http(s) URL such as https://memory.example.com");
    }
    return value;
  }

  /** Creates the settings file when it is missing; an existing one is the user's and stays. */
  private static void settings(Host host, Optional<String> server, PrintWriter out)
      throws IOException {
    Path file = host.environmentFile();
    if (Files.exists(file)) {
      out.println("Settings: " + file + " (kept as it is).");
      server.ifPresent(
          url ->
              out.println(
                  "  to use "
                      + url
                      + ", set TMEM_SERVER_URL="
                      + url
                      + " there and restart the service."));
      return;
    }
    String content =
        "# Settings of the Team Memory daemon, read by its service at every start.\n"
            + "# One VARIABLE=value a line. Log in with `tmem login`; keep tokens out of this"
            + " file.\n"
            + server
                .map(url -> "TMEM_SERVER_URL=" + url + "\n")
                .orElse("# TMEM_SERVER_URL=https://memory.example.com\n");
    // Private: a user may add a service account's token here later.
    UnitFile.write(file, content, "rw-------");
    if (server.isPresent()) {
      out.println("Wrote " + file + " with TMEM_SERVER_URL=" + server.get() + ".");
    } else {
      out.println(
          "Wrote "
              + file
              + "; the daemon uses the server you logged in to with `tmem login`, or set"
              + " TMEM_SERVER_URL there (your team's server) before starting it.");
    }
  }
}
