package dev.teammemory.daemon.sync;

import java.util.List;

/** What one push came to. */
public sealed interface PushOutcome {

  /** Keys sent in this many batches; {@code conflicts} were changed on both sides (local won). */
  record Pushed(int keys, int batches, List<String> conflicts) implements PushOutcome {
    public Pushed {
      conflicts = List.copyOf(conflicts);
    }
  }

  /** Every syncable file already has the server's checksum. */
  record NothingToPush() implements PushOutcome {}

  /** The repository kept changing under us through every {@code 412} retry. */
  record Conflict(String reason) implements PushOutcome {}

  /** The server refused the push in a way retrying cannot fix. */
  record Rejected(String reason) implements PushOutcome {}

  /** The server could not be reached or failed; retried with backoff. */
  record Offline(String reason) implements PushOutcome {}

  /** {@code 401}, {@code 403} or a {@code 404} on PUT: pushing stops until the user acts. */
  record NoAccess(String reason) implements PushOutcome {}
}
