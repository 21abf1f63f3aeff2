package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void delaysDoubleFromHalfASecondToThirtyTwoSecondsWithJitterInTheUpperHalf() {
    Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(32), new Random(7));
    long[] steps = {500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 32_000, 32_000};
    for (long step : steps) {
      long delay = backoff.next().toMillis();
      assertThat(delay).isBetween(step / 2, step);
    }
  }

  @Test
  void resetStartsOverAtHalfASecond() {
    Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(32), new Random(7));
    for (int i = 0; i < 10; i++) {
      backoff.next();
    }
    backoff.reset();
    assertThat(backoff.next().toMillis()).isBetween(250L, 500L);
  }
}
