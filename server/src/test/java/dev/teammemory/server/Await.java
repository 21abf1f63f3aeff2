package dev.teammemory.server;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition, looking every 20 ms, until a deadline. */
public final class Await {

  public static final Duration DEADLINE = Duration.ofSeconds(30);

  private Await() {}

  /** Returns once {@code condition} holds; fails naming {@code what} after {@link #DEADLINE}. */
  public static void until(String what, BooleanSupplier condition) {
    Instant deadline = Instant.now().plus(DEADLINE);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("timed out waiting for " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
  }
}
