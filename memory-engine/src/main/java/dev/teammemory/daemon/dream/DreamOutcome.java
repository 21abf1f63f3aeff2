package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;

/** What a request to consolidate memory did. */
public sealed interface DreamOutcome {

  /**
   * Memory was consolidated.
   *
   * @param sessions how many sessions had been active since the last consolidation
   * @param changes one line per change, for a person
   */
  record Consolidated(String writer, int sessions, List<String> changes) implements DreamOutcome {
    public Consolidated {
      requireNonNull(writer, "writer is null");
      changes = List.copyOf(changes);
    }
  }

  /** A dry run: what an offline consolidation would change now; nothing was. */
  record Planned(List<String> changes) implements DreamOutcome {
    public Planned {
      changes = List.copyOf(changes);
    }
  }

  /** A gate is closed; {@code reason} says which and until when. */
  record NotDue(String reason) implements DreamOutcome {
    public NotDue {
      requireNonNull(reason, "reason is null");
    }
  }

  /** Another live process is consolidating this memory. */
  record Busy(long pid, Instant since) implements DreamOutcome {
    public Busy {
      requireNonNull(since, "since is null");
    }
  }

  /** Stopped on request; the lock's time was rolled back so that it runs again soon. */
  record Cancelled(String phase) implements DreamOutcome {
    public Cancelled {
      requireNonNull(phase, "phase is null");
    }
  }

  /** It failed; the lock's time was rolled back so that it runs again soon. */
  record Failed(String reason) implements DreamOutcome {
    public Failed {
      requireNonNull(reason, "reason is null");
    }
  }
}
