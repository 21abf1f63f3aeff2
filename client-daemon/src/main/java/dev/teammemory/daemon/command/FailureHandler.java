package dev.teammemory.daemon.command;

import dev.teammemory.daemon.files.FailureWords;
import picocli.CommandLine;

/**
 * Turns an exception that escaped a command into one line a person can act on, never a stack trace
 * or an exception's class name (unless {@code TMEM_DEBUG=1}). {@link UserError} carries its own
 * exit code; anything else is a problem (exit 1).
 */
final class FailureHandler implements CommandLine.IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception exception, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    if (exception instanceof UserError userError) {
      commandLine.getErr().println("tmem: " + userError.getMessage());
      return userError.exitCode();
    }
    boolean debug = System.getenv("TMEM_DEBUG") != null;
    commandLine
        .getErr()
        .println(
            "tmem: "
                + commandLine.getCommandName()
                + " failed: "
                + FailureWords.describe(exception)
                + (debug ? "" : " (run with TMEM_DEBUG=1 for details)"));
    if (debug) {
      exception.printStackTrace(commandLine.getErr());
    }
    return ExitCode.PROBLEM;
  }
}
