package dev.teammemory.daemon.sync;

import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter, the one mechanism every loop that talks to the server uses (push
 * retries, the change feed, the conditional-GET fallback, the start-up): 500 ms doubling to 32 s.
 * Each delay is drawn from the upper half of its step ("equal jitter"), so daemons that failed
 * together do not retry together, and no retry comes sooner than half the step. A server's {@code
 * retry-after} makes the delay at least that long. Only a success resets it.
 */
final class Backoff {

  private final Duration initial;
  private final Duration max;
  private final RandomGenerator random;
  private int failures;

  Backoff(Duration initial, Duration max, RandomGenerator random) {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff needs 0 < initial <= max: " + initial + ", " + max);
    }
    this.initial = initial;
    this.max = max;
    this.random = random;
  }

  /** The delay before the next attempt after one more failure. */
  synchronized Duration next() {
    long step = initial.toMillis();
    for (int i = 0; i < failures && step < max.toMillis(); i++) {
      step *= 2;
    }
    step = Math.min(step, max.toMillis());
    failures++;
    long half = step / 2;
    return Duration.ofMillis(half + random.nextLong(step - half + 1));
  }

  /** The delay after one more failure, and no shorter than the server's {@code retry-after}. */
  Duration next(Optional<Duration> retryAfter) {
    Duration delay = next();
    return retryAfter.filter(wait -> wait.compareTo(delay) > 0).orElse(delay);
  }

  synchronized void reset() {
    failures = 0;
  }
}
