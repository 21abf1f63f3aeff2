package dev.teammemory.daemon.command;

import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Runs a command tree as a program: usage errors exit 2, and a failure is one line on stderr and
 * its exit code ({@link FailureHandler}), never a stack trace.
 */
public final class Launcher {

  private Launcher() {}

  /** The command line of a command tree, with the failure handling every entry point shares. */
  public static CommandLine commandLine(Object root) {
    CommandLine commandLine = new CommandLine(root);
    commandLine.setExitCodeExceptionMapper(exception -> ExitCode.USAGE);
    commandLine.setExecutionExceptionHandler(new FailureHandler());
    return commandLine;
  }

  /** Runs the command tree with this process's arguments and streams, then exits. */
  public static void main(Object root, String[] args) {
    // UTF-8 whatever the locale, as the reference client writes: hooks and --format json are read
    // by programs that expect it, and a POSIX locale (services, containers) would print '?'.
    PrintWriter out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err =
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    LogFormat logFormat;
    try {
      logFormat = LogFormat.fromEnvironment(System.getenv());
    } catch (UserError unknown) {
      err.println("tmem: " + unknown.getMessage());
      System.exit(unknown.exitCode());
      return;
    }
    logFormat.sendTo(err);
    moveLegacyState(err);
    CommandLine commandLine = commandLine(root);
    commandLine.setOut(out);
    commandLine.setErr(err);
    int exitCode = commandLine.execute(args);
    // Commands may print() without a newline; autoflush covers only println, and exit drops the
    // rest.
    out.flush();
    err.flush();
    System.exit(exitCode);
  }

  /**
   * Brings state an older tmem left under Java's {@code user.home} to the one state folder before
   * any command reads it (see {@link LegacyStateMove#move}).
   */
  private static void moveLegacyState(PrintWriter err) {
    Environment environment = Environment.system();
    Path javaUserHome = Path.of(System.getProperty("user.home"));
    try {
      switch (LegacyStateMove.move(environment, javaUserHome)) {
        case LegacyStateMove.Result.Moved moved ->
            err.println(
                "tmem: moved "
                    + moved.entries().size()
                    + " state entries from "
                    + javaUserHome.resolve(".local/state/tmem")
                    + " to "
                    + StateHome.of(environment));
        case LegacyStateMove.Result.LeftAlone left ->
            err.println(
                "tmem: not moving the state in "
                    + left.from()
                    + " to "
                    + StateHome.of(environment)
                    + ": "
                    + left.why());
        case LegacyStateMove.Result.Nothing nothing -> {}
      }
    } catch (IOException | RuntimeException failed) {
      err.println(
          "tmem: could not move the state under "
              + javaUserHome.resolve(".local/state/tmem")
              + " to "
              + StateHome.of(environment)
              + " ("
              + FailureWords.describe(failed)
              + "); move it by hand");
    }
  }
}
