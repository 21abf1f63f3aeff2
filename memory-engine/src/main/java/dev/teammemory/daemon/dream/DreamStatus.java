package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Where consolidation of one memory directory stands, for {@code tmem dream --status}.
 *
 * @param lastConsolidated the lock file's mtime; empty when memory was never consolidated
 * @param holder the live process consolidating now, if any
 * @param sessionsSince other sessions active since the last consolidation
 * @param lastRun the latest run tmem recorded
 * @param next when the next automatic consolidation is due, for a person
 */
public record DreamStatus(
    Path memoryDirectory,
    Optional<String> disabledBy,
    Optional<Instant> lastConsolidated,
    Optional<ConsolidationHolder> holder,
    int sessionsSince,
    Optional<DreamRun> lastRun,
    String next) {

  public DreamStatus {
    requireNonNull(memoryDirectory, "memoryDirectory is null");
    requireNonNull(disabledBy, "disabledBy is null");
    requireNonNull(lastConsolidated, "lastConsolidated is null");
    requireNonNull(holder, "holder is null");
    requireNonNull(lastRun, "lastRun is null");
    requireNonNull(next, "next is null");
  }

  public record ConsolidationHolder(long pid, Instant since) {
    public ConsolidationHolder {
      requireNonNull(since, "since is null");
    }
  }
}
