package dev.teammemory.server.memory;

import io.quarkus.scheduler.Scheduled;
import jakarta.inject.Inject;
import java.time.Instant;

/** The memory feature's scheduled jobs: one-line delegates, which tests call directly. */
final class MemoryJobs {

  private final HistoryRetention retention;
  private final RepositoryStatistics statistics;

  @Inject
  MemoryJobs(HistoryRetention retention, RepositoryStatistics statistics) {
    this.retention = retention;
    this.statistics = statistics;
  }

  @Scheduled(
      every = "${tmem.history.prune-every:1h}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
  void pruneHistory() {
    retention.prune(Instant.now());
  }

  @Scheduled(
      every = "${tmem.statistics.refresh-every:6h}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
  void refreshStatistics() {
    statistics.refresh();
  }
}
