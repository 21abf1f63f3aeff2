package dev.teammemory.daemon.command;

/** The exit codes of every {@code tmem} command. */
public final class ExitCode {

  /** Success. */
  public static final int OK = 0;

  /** The command ran and found a problem. */
  public static final int PROBLEM = 1;

  /** Bad usage or configuration. */
  public static final int USAGE = 2;

  private ExitCode() {}
}
