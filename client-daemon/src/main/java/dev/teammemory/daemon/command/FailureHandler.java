package dev.teammemory.daemon.command;

import picocli.CommandLine;

/**
 * Turns an exception that escaped a command into one line a person can act on, never a stack trace.
 * {@link UserError} carries its own exit code; anything else is an unexpected failure.
 */
final class FailureHandler implements CommandLine.IExecutionExceptionHandler {

  @Override
  public int handleExecutionException(
      Exception exception, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    if (exception instanceof UserError userError) {
      commandLine.getErr().println("tmem: " + userError.getMessage());
      return userError.exitCode();
    }
    commandLine
        .getErr()
        .println(
            "tmem: unexpected "
                + exception.getClass().getSimpleName()
                + (exception.getMessage() == null ? "" : ": " + exception.getMessage())
                + " (run with TMEM_DEBUG=1 for details)");
    if (System.getenv("TMEM_DEBUG") != null) {
      exception.printStackTrace(commandLine.getErr());
    }
    return ExitCode.PROBLEM;
  }
}
