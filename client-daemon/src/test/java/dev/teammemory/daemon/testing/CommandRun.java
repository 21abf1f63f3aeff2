package dev.teammemory.daemon.testing;

import dev.teammemory.daemon.command.UserError;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * Runs one command object as {@code tmem} would, with its streams captured: a {@link UserError}
 * becomes {@code tmem: message} and its exit code. Commands built with their own environment keep
 * tests away from the machine's {@code ~/.claude} and keys.
 */
public final class CommandRun {

  public final StringWriter out = new StringWriter();
  public final StringWriter err = new StringWriter();

  public int run(Object command, String... args) {
    CommandLine commandLine = new CommandLine(command);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setExecutionExceptionHandler(
        (exception, line, parseResult) -> {
          if (exception instanceof UserError userError) {
            line.getErr().println("tmem: " + userError.getMessage());
            return userError.exitCode();
          }
          throw exception;
        });
    return commandLine.execute(args);
  }

  public String out() {
    return out.toString();
  }

  public String err() {
    return err.toString();
  }
}
