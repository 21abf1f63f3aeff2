package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One consolidation run, as its state file keeps it and {@code tmem dream --status} shows it.
 *
 * @param pid the process running it
 * @param phase the phase it is in or ended in
 * @param outcome {@code running}, {@code completed}, {@code failed} or {@code cancelled}
 * @param detail the failure's reason, or a one-line summary of what changed
 */
public record DreamRun(
    long pid,
    String writer,
    Instant started,
    Optional<Instant> finished,
    String phase,
    String outcome,
    String detail,
    List<String> changes) {

  public DreamRun {
    requireNonNull(writer, "writer is null");
    requireNonNull(started, "started is null");
    requireNonNull(finished, "finished is null");
    requireNonNull(phase, "phase is null");
    requireNonNull(outcome, "outcome is null");
    requireNonNull(detail, "detail is null");
    changes = List.copyOf(changes);
  }

  DreamRun inPhase(String newPhase) {
    return new DreamRun(pid, writer, started, finished, newPhase, outcome, detail, changes);
  }

  DreamRun ended(Instant at, String newOutcome, String newDetail, List<String> newChanges) {
    return new DreamRun(
        pid, writer, started, Optional.of(at), phase, newOutcome, newDetail, newChanges);
  }
}
