package dev.teammemory.server.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.teammemory.server.errors.ApiException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WriteRateTest {

  private static final long SECOND = 1_000_000_000L;
  private static final int BODY_LIMIT = 1_048_576;
  private static final String STORM = "token:mallory";
  private static final String NEIGHBOUR = "token:alice";

  /** The shipped defaults (LimitsConfig.Writes). */
  private static final Limits DEFAULTS = new Limits(2500, 10, 64_000_000, 250_000);

  private record Limits(long burst, double perSecond, long burstBytes, long bytesPerSecond)
      implements LimitsConfig.Writes {}

  private final AtomicLong clock = new AtomicLong(1_000 * SECOND);

  private WriteRate rate(Limits limits) {
    return new WriteRate(limits, BODY_LIMIT, clock::get);
  }

  @Test
  void aCallerOverItsBurstGets429WithRetryAfterAndANeighbourIsUnaffected() {
    WriteRate rate = rate(new Limits(3, 1, 10_000_000, 1_000_000));
    for (int i = 0; i < 3; i++) {
      rate.charge(STORM, 100);
    }

    assertThatThrownBy(() -> rate.charge(STORM, 100))
        .isInstanceOfSatisfying(
            ApiException.class,
            refused -> {
              assertThat(refused.status()).isEqualTo(429);
              assertThat(refused.errorCode()).isEqualTo("rate_limited");
              assertThat(refused.headers()).containsEntry("retry-after", "1");
              assertThat(refused.getMessage())
                  .isEqualTo(
                      "you are writing faster than this server allows each caller; retry in 1 s");
            });
    rate.charge(NEIGHBOUR, 100);

    clock.addAndGet(SECOND); // one request's worth refilled
    rate.charge(STORM, 100);
  }

  @Test
  void aCallerOverItsBytesIsToldHowLongUntilTheBodyWouldPass() {
    WriteRate rate = rate(new Limits(1000, 100, 2_000_000, 100_000));
    rate.charge(STORM, 1_000_000);
    rate.charge(STORM, 1_000_000);

    assertThatThrownBy(() -> rate.charge(STORM, 500_000))
        .isInstanceOfSatisfying(
            ApiException.class,
            refused -> assertThat(refused.headers()).containsEntry("retry-after", "5"));
  }

  @Test
  void theDefaultsLetAFirstSyncAtTheEntryLimitAndAReuploadOfAFullRepositoryThrough() {
    WriteRate rate = rate(DEFAULTS);
    // A first sync through the store API: one create per file, 2,000 files, at once.
    for (int i = 0; i < 2000; i++) {
      rate.charge(NEIGHBOUR, 2_000);
    }
    // After a server loss, the reference client re-uploads a repository at the byte limit (50 MB)
    // in PUTs of at most 200,000 bytes; an hour's normal edits later, every PUT passed.
    WriteRate again = rate(DEFAULTS);
    for (int i = 0; i < 50_000_000 / 200_000 + 10; i++) {
      again.charge(STORM, 200_000);
    }
  }

  @Test
  void theDefaultsStopAWriteStormOfLargePuts() {
    WriteRate rate = rate(DEFAULTS);
    int passed = 0;
    try {
      for (int i = 0; i < 800; i++) {
        rate.charge(STORM, 240_000); // issue 23: 800 PUTs of ~240 KB in 11.5 s
        passed++;
        clock.addAndGet(SECOND * 115 / 8000);
      }
    } catch (ApiException refused) {
      assertThat(refused.status()).isEqualTo(429);
    }
    assertThat(passed).isBetween(250, 300);
  }
}
