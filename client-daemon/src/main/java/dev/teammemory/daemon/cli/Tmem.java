package dev.teammemory.daemon.cli;

import dev.teammemory.daemon.command.Launcher;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tmem} command: one entry point for the daemon, team sync, login and the local memory
 * engine. Exit codes: 0 success, 1 the command ran and found a problem, 2 usage or configuration
 * error.
 */
@Command(
    name = "tmem",
    mixinStandardHelpOptions = true,
    versionProvider = Tmem.Version.class,
    description = "Team Memory: shares your AI agent's memory/team/ folder with your team.",
    subcommands = {
      CommandLine.HelpCommand.class,
      dev.teammemory.daemon.run.DaemonCommand.class,
      SyncCommand.class,
      dev.teammemory.daemon.login.LoginCommand.class,
      dev.teammemory.daemon.login.LogoutCommand.class,
      AddCommand.class,
      StatusCommand.class,
      ConsoleCommand.class,
      TeamCommand.class,
      ScanCommand.class,
      MemoryCommand.class,
      RecallCommand.class,
      NotesCommand.class,
      CompactCommand.class,
      ExtractCommand.class,
      dev.teammemory.daemon.hook.HookCommand.class,
      DreamCommand.class,
      dev.teammemory.daemon.api.ApiCommand.class,
      dev.teammemory.daemon.api.McpCommand.class,
    })
public final class Tmem implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    Launcher.main(new Tmem(), args);
  }

  /** Runs one command line with the given streams; the exit code is returned, not exited. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = commandLine();
    commandLine.setOut(out);
    commandLine.setErr(err);
    return commandLine.execute(args);
  }

  static CommandLine commandLine() {
    return Launcher.commandLine(new Tmem());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Reads the version Maven wrote into the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Tmem.class.getPackage().getImplementationVersion();
      return new String[] {"tmem " + (version == null ? "development build" : version)};
    }
  }
}
