package dev.teammemory.deploy.replicas;

import java.io.PrintStream;

/** PASS/FAIL lines for a proof program, and its exit code: 0 when every check passed. */
public final class Verdicts {

  private final PrintStream out;
  private int failures;

  public Verdicts(PrintStream out) {
    this.out = out;
  }

  /** Prints {@code PASS what} or {@code FAIL what} and remembers a failure. */
  public void check(boolean passed, String what) {
    out.println((passed ? "PASS " : "FAIL ") + what);
    if (!passed) {
      failures++;
    }
  }

  public int failures() {
    return failures;
  }

  public int exitCode() {
    return failures == 0 ? 0 : 1;
  }
}
