package dev.teammemory.daemon.cli;

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
      dev.teammemory.daemon.sync.SyncCommand.class,
      dev.teammemory.daemon.login.LoginCommand.class,
      dev.teammemory.daemon.login.LogoutCommand.class,
      dev.teammemory.daemon.project.AddCommand.class,
      dev.teammemory.daemon.status.StatusCommand.class,
      dev.teammemory.daemon.team.TeamCommand.class,
      dev.teammemory.daemon.scan.ScanCommand.class,
      dev.teammemory.daemon.memory.MemoryCommand.class,
      dev.teammemory.daemon.recall.RecallCommand.class,
      dev.teammemory.daemon.notes.NotesCommand.class,
      dev.teammemory.daemon.compact.CompactCommand.class,
      dev.teammemory.daemon.extract.ExtractCommand.class,
      dev.teammemory.daemon.hook.HookCommand.class,
      dev.teammemory.daemon.dream.DreamCommand.class,
      dev.teammemory.daemon.api.ApiCommand.class,
      dev.teammemory.daemon.api.McpCommand.class,
    })
public final class Tmem implements Runnable {

  public static final int OK = 0;
  public static final int PROBLEM = 1;
  public static final int USAGE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int exitCode = run(args, out, err);
    // Commands may print() without a newline; autoflush covers only println, and exit drops the
    // rest.
    out.flush();
    err.flush();
    System.exit(exitCode);
  }

  /** Runs one command line with the given streams; the exit code is returned, not exited. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = commandLine();
    commandLine.setOut(out);
    commandLine.setErr(err);
    return commandLine.execute(args);
  }

  static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new Tmem());
    commandLine.setExitCodeExceptionMapper(exception -> USAGE);
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    return commandLine;
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
