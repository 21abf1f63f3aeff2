package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a session's notes stand, kept between updates.
 *
 * @param initialized whether the conversation has once reached the size where notes start
 * @param tokensAtLastUpdate the conversation's size when the notes were last written
 * @param lastUpdateMessage the last message the previous update saw; tool calls are counted after
 *     it
 * @param lastSummarizedMessage the last message the notes are known to cover, which compaction may
 *     drop; it only moves when the last assistant turn has no pending tool call, so a tool_use is
 *     never summarized without its result
 */
public record NotesProgress(
    boolean initialized,
    long tokensAtLastUpdate,
    Optional<String> lastUpdateMessage,
    Optional<String> lastSummarizedMessage,
    Optional<Instant> lastUpdate) {

  public static final NotesProgress NONE =
      new NotesProgress(false, 0, Optional.empty(), Optional.empty(), Optional.empty());

  public NotesProgress {
    requireNonNull(lastUpdateMessage, "lastUpdateMessage is null");
    requireNonNull(lastSummarizedMessage, "lastSummarizedMessage is null");
    requireNonNull(lastUpdate, "lastUpdate is null");
    if (tokensAtLastUpdate < 0) {
      throw new IllegalArgumentException(
          "tokensAtLastUpdate must not be negative: " + tokensAtLastUpdate);
    }
  }
}
