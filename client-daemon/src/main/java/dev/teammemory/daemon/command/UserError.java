package dev.teammemory.daemon.command;

/**
 * A failure the user can fix, with a message that says what failed, why, and what to do. Its
 * message must never contain a token, a secret or a file's content.
 */
public final class UserError extends RuntimeException {

  private final int exitCode;

  private UserError(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  /** Bad usage or configuration: exit code 2. */
  public static UserError usage(String message) {
    return new UserError(message, ExitCode.USAGE);
  }

  /** The command ran and found a problem: exit code 1. */
  public static UserError problem(String message) {
    return new UserError(message, ExitCode.PROBLEM);
  }

  public int exitCode() {
    return exitCode;
  }
}
