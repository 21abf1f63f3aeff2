package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Timings of the sync engine. The daemon uses {@link #defaults()}; tests shorten the quiet period
 * and the backoff so they run in seconds.
 *
 * @param quietPeriod push this long after the last change (2 s)
 * @param backoffInitial first retry delay after a network failure (500 ms)
 * @param backoffMax the longest retry delay (32 s)
 * @param feedWait how long one change-feed request waits on the server (30 s)
 * @param pollInterval how often to poll with {@code If-None-Match} when the server has no change
 *     feed (5 s)
 * @param shutdownFlush how long the flush at shutdown may take (20 s)
 * @param deleteDelay a synced file must be missing on two scans at least this far apart before its
 *     delete goes to the server (30 s), so a file rewritten by delete-and-create is not lost
 */
public record SyncSettings(
    Duration quietPeriod,
    Duration backoffInitial,
    Duration backoffMax,
    Duration feedWait,
    Duration pollInterval,
    Duration shutdownFlush,
    Duration deleteDelay) {

  public SyncSettings {
    requireNonNull(quietPeriod, "quietPeriod is null");
    requireNonNull(backoffInitial, "backoffInitial is null");
    requireNonNull(backoffMax, "backoffMax is null");
    requireNonNull(feedWait, "feedWait is null");
    requireNonNull(pollInterval, "pollInterval is null");
    requireNonNull(shutdownFlush, "shutdownFlush is null");
    requireNonNull(deleteDelay, "deleteDelay is null");
  }

  public static SyncSettings defaults() {
    return new SyncSettings(
        Duration.ofSeconds(2),
        Duration.ofMillis(500),
        Duration.ofSeconds(32),
        Duration.ofSeconds(30),
        Duration.ofSeconds(5),
        Duration.ofSeconds(20),
        Duration.ofSeconds(30));
  }

  public SyncSettings withQuietPeriod(Duration quietPeriod) {
    return new SyncSettings(
        quietPeriod,
        backoffInitial,
        backoffMax,
        feedWait,
        pollInterval,
        shutdownFlush,
        deleteDelay);
  }

  public SyncSettings withBackoff(Duration initial, Duration max) {
    return new SyncSettings(
        quietPeriod, initial, max, feedWait, pollInterval, shutdownFlush, deleteDelay);
  }

  public SyncSettings withPollInterval(Duration pollInterval) {
    return new SyncSettings(
        quietPeriod,
        backoffInitial,
        backoffMax,
        feedWait,
        pollInterval,
        shutdownFlush,
        deleteDelay);
  }

  public SyncSettings withFeedWait(Duration feedWait) {
    return new SyncSettings(
        quietPeriod,
        backoffInitial,
        backoffMax,
        feedWait,
        pollInterval,
        shutdownFlush,
        deleteDelay);
  }

  public SyncSettings withDeleteDelay(Duration deleteDelay) {
    return new SyncSettings(
        quietPeriod,
        backoffInitial,
        backoffMax,
        feedWait,
        pollInterval,
        shutdownFlush,
        deleteDelay);
  }
}
