package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

  /**
   * The server could not be reached or failed; retried with backoff, not before {@code retryAfter}
   * when the server said so.
   */
  record Offline(String reason, Optional<Duration> retryAfter) implements PullOutcome {
    public Offline {
      java.util.Objects.requireNonNull(reason, "reason is null");
      java.util.Objects.requireNonNull(retryAfter, "retryAfter is null");
    }

    public Offline(String reason) {
      this(reason, Optional.empty());
    }
  }

  /** {@code 401} or {@code 403}: nothing to do until the user acts. */
  record NoAccess(String reason) implements PullOutcome {}

  /** Anything else that went wrong, in words. */
  record Failed(String reason) implements PullOutcome {}

  /**
   * What an answer other than the one a pull hoped for comes to: unreachable or busy is {@link
   * Offline}, an unknown or refused token {@link NoAccess}, anything else {@link Failed}, naming
   * {@code request} ("the export", say).
   */
  static PullOutcome notPulled(
      Response<?> answer, String repo, String request, TeamMemoryClient client) {
    return switch (answer) {
      case Response.TransportFailure<?> failure ->
          new Offline(failure.reason(), failure.retryAfter());
      case Response.Unauthorized<?> unauthorized -> new NoAccess(Failures.unauthorized());
      case Response.Rejected<?> rejected when rejected.status() == 403 ->
          new NoAccess(Failures.forbidden(repo, "read", client));
      case Response.Rejected<?> rejected ->
          new Failed(
              "the server refused "
                  + request
                  + ": "
                  + Failures.describe(rejected.status(), rejected.error()));
      case Response.NotModified<?> notModified ->
          new Failed("the server answered " + request + " with 304");
      case Response.NotFound<?> notFound ->
          new Failed("the server answered " + request + " with 404");
      case Response.Conflict<?> conflict ->
          new Failed("the server answered " + request + " with a conflict");
      case Response.TooManyEntries<?> tooMany ->
          new Failed("the server answered " + request + " with 413");
      case Response.Ok<?> ok -> throw new IllegalArgumentException("a pull's answer was Ok");
    };
  }
}
