package dev.teammemory.daemon.compact;

/**
 * The sizes compaction works to: the model's context window and the most it may write in one
 * answer. Automatic compaction starts at {@code window − min(max output, 20,000) − 13,000}, about
 * 93% of a 200,000-token window: room for one more answer and a buffer.
 */
public record CompactionLimits(long contextWindow, long maxOutput) {

  public static final long DEFAULT_CONTEXT_WINDOW = 200_000;
  public static final long DEFAULT_MAX_OUTPUT = 20_000;
  static final long MAX_OUTPUT_RESERVE = 20_000;
  static final long BUFFER_TOKENS = 13_000;

  public static final CompactionLimits DEFAULTS =
      new CompactionLimits(DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT);

  public CompactionLimits {
    if (maxOutput < 1) {
      throw new IllegalArgumentException("maxOutput must be 1 or more: " + maxOutput);
    }
    if (contextWindow - Math.min(maxOutput, MAX_OUTPUT_RESERVE) - BUFFER_TOKENS < 1) {
      throw new IllegalArgumentException(
          "contextWindow leaves no room below the reserve of "
              + (Math.min(maxOutput, MAX_OUTPUT_RESERVE) + BUFFER_TOKENS)
              + " tokens: "
              + contextWindow);
    }
  }

  /** The context size at which compaction is due. */
  public long autoCompactThreshold() {
    return contextWindow - Math.min(maxOutput, MAX_OUTPUT_RESERVE) - BUFFER_TOKENS;
  }

  /** The most a summary may be asked to take: the answer budget, capped as the reserve is. */
  int summaryMaxTokens() {
    return (int) Math.min(maxOutput, MAX_OUTPUT_RESERVE);
  }
}
