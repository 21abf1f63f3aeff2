package dev.teammemory.daemon.transcript;

/**
 * The token usage an API response reported. Its sum is the size of the context window at that call,
 * which is what the reference measures thresholds against.
 */
public record Usage(
    long inputTokens, long outputTokens, long cacheCreationInputTokens, long cacheReadInputTokens) {

  public Usage {
    if (inputTokens < 0
        || outputTokens < 0
        || cacheCreationInputTokens < 0
        || cacheReadInputTokens < 0) {
      throw new IllegalArgumentException(
          "token counts must not be negative: "
              + inputTokens
              + ", "
              + outputTokens
              + ", "
              + cacheCreationInputTokens
              + ", "
              + cacheReadInputTokens);
    }
  }

  /** Input, cache creation, cache read and output tokens together. */
  public long contextTokens() {
    return inputTokens + cacheCreationInputTokens + cacheReadInputTokens + outputTokens;
  }
}
