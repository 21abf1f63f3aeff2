package dev.teammemory.daemon.compact;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;

/** What a request to compact a session did. */
public sealed interface CompactionOutcome {

  /** How the summary was made. */
  enum Level {
    /** Level 1: the session notes replace the older messages; no model call. */
    SESSION_NOTES(1),
    /** Level 2: a full nine-section summary, by the model or offline. */
    SUMMARY(2),
    /**
     * Level 3: a full summary after dropping the oldest rounds because the request was too long.
     */
    TRUNCATED_SUMMARY(3);

    private final int number;

    Level(int number) {
      this.number = number;
    }

    public int number() {
      return number;
    }
  }

  /**
   * The conversation was compacted.
   *
   * @param writer who wrote the summary: the session notes, a model, or the offline summarizer
   * @param fallbacks why each cheaper level was not used, in order
   * @param lines the compacted conversation, one JSON object per entry in the transcript's shapes:
   *     the boundary, the summary, the kept messages, files read again, then the session's title
   *     and tags
   */
  record Compacted(
      Level level,
      String writer,
      String trigger,
      long preTokens,
      long postTokens,
      long threshold,
      int keptMessages,
      int promptTooLongRetries,
      List<String> fallbacks,
      List<Path> restoredFiles,
      List<String> lines)
      implements CompactionOutcome {
    public Compacted {
      requireNonNull(level, "level is null");
      requireNonNull(writer, "writer is null");
      requireNonNull(trigger, "trigger is null");
      fallbacks = List.copyOf(fallbacks);
      restoredFiles = List.copyOf(restoredFiles);
      lines = List.copyOf(lines);
    }
  }

  /** Automatic compaction is not due: the conversation is below the threshold. */
  record NotNeeded(long tokens, long threshold) implements CompactionOutcome {}

  /** Automatic compaction failed too often in a row; it is not tried again until one succeeds. */
  record CircuitOpen(int consecutiveFailures) implements CompactionOutcome {}

  /** Every level failed; the transcript is as it was. */
  record Failed(String reason, List<String> fallbacks, int consecutiveFailures)
      implements CompactionOutcome {
    public Failed {
      requireNonNull(reason, "reason is null");
      fallbacks = List.copyOf(fallbacks);
    }
  }
}
