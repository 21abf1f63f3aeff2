package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.ErrorEnvelope;
import java.util.Optional;

/**
 * What a Memory Stores API refusal of one file means for {@code tmem status}. The API names its
 * refusals only by message (MEMORY-STORES.md lists the ones Claude Code matches), so the message
 * decides the skip's reason and is shown as its detail; it never carries the file's content.
 */
final class StoreRefusal {

  private StoreRefusal() {}

  static SyncState.Skip skipOf(int status, Optional<ErrorEnvelope> error, String checksum) {
    Optional<String> message = error.flatMap(ErrorEnvelope::message);
    String words = message.orElse("");
    SkipReason reason;
    if (status != 400) {
      reason = SkipReason.REJECTED;
    } else if (words.contains("credential or API key")) {
      reason = SkipReason.SECRET;
    } else if (words.startsWith("content must be at most")) {
      reason = SkipReason.TOO_LARGE;
    } else if (words.startsWith("memory store has reached its")) {
      reason = SkipReason.OVER_CAP;
    } else if (words.startsWith("path must")) {
      reason = SkipReason.INVALID_NAME;
    } else {
      reason = SkipReason.REJECTED;
    }
    String detail = "the server refused it (" + Failures.describe(status, error) + ")";
    return new SyncState.Skip(reason, detail, checksum);
  }
}
