package dev.teammemory.daemon.sync;

import java.util.List;

/** What one pull came to. */
public sealed interface PullOutcome {

  /**
   * The server's state was applied: files written, local copies deleted after a {@code tmem team
   * rm}, keys both sides changed, and keys refused as unsafe.
   */
  record Pulled(int written, int deleted, List<String> conflicts, List<String> refused)
      implements PullOutcome {
    public Pulled {
      conflicts = List.copyOf(conflicts);
      refused = List.copyOf(refused);
    }
  }

  /** The repository still has the checksum we know ({@code 304}). */
  record Unchanged() implements PullOutcome {}

  /** The server could not be reached or failed; retried with backoff. */
  record Offline(String reason) implements PullOutcome {}

  /** {@code 401} or {@code 403}: nothing to do until the user acts. */
  record NoAccess(String reason) implements PullOutcome {}

  /** Anything else that went wrong, in words. */
  record Failed(String reason) implements PullOutcome {}
}
