package dev.teammemory.daemon.login;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A sleeper that returns at once, records every wait, and moves its clock on by the wait: time in a
 * test passes only by sleeping, and no test sleeps.
 */
final class RecordingSleeper implements Sleeper {

  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
  private volatile Instant now;

  RecordingSleeper(Instant start) {
    this.now = start;
  }

  @Override
  public void sleep(Duration duration) {
    sleeps.add(duration);
    now = now.plus(duration);
  }

  List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  /** A clock that reads the time the sleeps have reached. */
  Clock clock() {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the test clock is UTC only");
      }

      @Override
      public Instant instant() {
        return now;
      }
    };
  }
}
