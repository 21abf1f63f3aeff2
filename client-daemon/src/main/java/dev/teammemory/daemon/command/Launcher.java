package dev.teammemory.daemon.command;

import java.io.PrintWriter;
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
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
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
}
