package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.client.Response;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

  /**
   * The server could not be reached or failed; retried with backoff, not before {@code retryAfter}
   * when the server said so.
   */
  record Offline(String reason, Optional<Duration> retryAfter) implements PushOutcome {
    public Offline {
      java.util.Objects.requireNonNull(reason, "reason is null");
      java.util.Objects.requireNonNull(retryAfter, "retryAfter is null");
    }

    public Offline(String reason) {
      this(reason, Optional.empty());
    }

    static Offline of(Response.TransportFailure<?> failure) {
      return new Offline(failure.reason(), failure.retryAfter());
    }
  }

  /** {@code 401}, {@code 403} or a {@code 404} on PUT: pushing stops until the user acts. */
  record NoAccess(String reason) implements PushOutcome {}
}
