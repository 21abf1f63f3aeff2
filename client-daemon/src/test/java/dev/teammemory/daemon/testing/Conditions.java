package dev.teammemory.daemon.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline: tests never sleep for a fixed time. */
public final class Conditions {

  private Conditions() {}

  public static void await(String what, Duration deadline, BooleanSupplier condition) {
    long end = System.nanoTime() + deadline.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError(
            "timed out after " + deadline.toSeconds() + " s waiting for: " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(25));
    }
  }

  /** A condition that may throw while not yet true (a file not there yet, a refused connection). */
  public static boolean quietly(ThrowingCondition condition) {
    try {
      return condition.get();
    } catch (Exception | AssertionError e) {
      return false;
    }
  }

  @FunctionalInterface
  public interface ThrowingCondition {
    boolean get() throws Exception;
  }
}
