package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How often and how long to wait before retrying a request that failed for a reason that may pass
 * (429, 529, 5xx, a dropped connection, a timeout). Delays double from {@code initialDelay} up to
 * {@code maxDelay} with a little jitter; a {@code retry-after} header wins when present, up to
 * {@code maxRetryAfter}, beyond which waiting is pointless for a background task and the call fails
 * instead.
 */
public record RetryPolicy(
    int maxRetries, Duration initialDelay, Duration maxDelay, Duration maxRetryAfter) {

  public static final RetryPolicy DEFAULT =
      new RetryPolicy(4, Duration.ofMillis(500), Duration.ofSeconds(8), Duration.ofSeconds(60));

  public RetryPolicy {
    requireNonNull(initialDelay, "initialDelay is null");
    requireNonNull(maxDelay, "maxDelay is null");
    requireNonNull(maxRetryAfter, "maxRetryAfter is null");
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must not be negative: " + maxRetries);
    }
    if (initialDelay.isNegative() || maxDelay.isNegative() || maxRetryAfter.isNegative()) {
      throw new IllegalArgumentException(
          "delays must not be negative: " + initialDelay + ", " + maxDelay + ", " + maxRetryAfter);
    }
  }

  /** The delay before retry number {@code retry} (0-based), before jitter. */
  Duration backoff(int retry) {
    long millis = initialDelay.toMillis() << Math.min(retry, 20);
    return Duration.ofMillis(Math.min(millis, maxDelay.toMillis()));
  }

  /** Waits between attempts; tests record the delays instead of sleeping. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration delay) throws InterruptedException;

    Sleeper THREAD = delay -> Thread.sleep(delay.toMillis());
  }
}
