package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/** What one request to update session notes did. */
public sealed interface NotesOutcome {

  Path notes();

  /**
   * The notes were written.
   *
   * @param tokens the conversation's size when they were
   * @param writer who wrote them: the offline writer or a model
   * @param lastSummarizedMessage the last message the notes cover, for compaction
   */
  record Updated(Path notes, long tokens, String writer, Optional<String> lastSummarizedMessage)
      implements NotesOutcome {
    public Updated {
      requireNonNull(notes, "notes is null");
      requireNonNull(writer, "writer is null");
      requireNonNull(lastSummarizedMessage, "lastSummarizedMessage is null");
    }
  }

  /** The thresholds are not met yet; nothing was written. */
  record NotDue(Path notes, long tokens, String reason) implements NotesOutcome {
    public NotDue {
      requireNonNull(notes, "notes is null");
      requireNonNull(reason, "reason is null");
    }
  }

  /** Another update of the same notes is running; one runs at a time. */
  record Busy(Path notes) implements NotesOutcome {
    public Busy {
      requireNonNull(notes, "notes is null");
    }
  }

  /** The update failed; the notes are as they were. */
  record Failed(Path notes, String reason) implements NotesOutcome {
    public Failed {
      requireNonNull(notes, "notes is null");
      requireNonNull(reason, "reason is null");
    }
  }
}
