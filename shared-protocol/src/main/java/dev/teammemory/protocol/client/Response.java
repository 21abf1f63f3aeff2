package dev.teammemory.protocol.client;

import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.ErrorEnvelope;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one call to a team-memory server came to. Every outcome the protocol names is a value, so a
 * caller switches on it exhaustively instead of catching exceptions.
 *
 * @param <T> the body of a successful answer
 */
public sealed interface Response<T>
    permits Response.Ok,
        Response.NotModified,
        Response.NotFound,
        Response.Conflict,
        Response.TooManyEntries,
        Response.Rejected,
        Response.Unauthorized,
        Response.TransportFailure {

  /** {@code 200} with its parsed body; {@code etag} is the unquoted checksum of the ETag header. */
  record Ok<T>(T body, Optional<String> etag) implements Response<T> {
    public Ok {
      requireNonNull(body, "body is null");
      requireNonNull(etag, "etag is null");
    }
  }

  /** {@code 304}: the repository still has the checksum the caller sent. */
  record NotModified<T>() implements Response<T> {}

  /**
   * {@code 404}: on a read, a repository never written (a client treats it as empty); on a write, a
   * repository the caller cannot see.
   */
  record NotFound<T>(Optional<ErrorEnvelope> error) implements Response<T> {
    public NotFound {
      requireNonNull(error, "error is null");
    }
  }

  /** {@code 412}: the {@code If-Match} checksum is not the repository's; nothing was written. */
  record Conflict<T>(Optional<ErrorEnvelope> error) implements Response<T> {
    public Conflict {
      requireNonNull(error, "error is null");
    }
  }

  /**
   * {@code 413} with the entry-cap body: the write would leave more than {@code maxEntries} entries
   * (it would have left {@code receivedEntries}); nothing was written.
   */
  record TooManyEntries<T>(int maxEntries, int receivedEntries) implements Response<T> {
    public TooManyEntries {
      if (maxEntries < 0 || receivedEntries < 0) {
        throw new IllegalArgumentException(
            "entry counts are negative: " + maxEntries + ", " + receivedEntries);
      }
    }
  }

  /**
   * Any other {@code 4xx}: {@code 400} (bad key, body or parameter), {@code 403}, {@code 413} other
   * than the entry cap, {@code 415}, {@code 422} (a secret). Retrying the same request cannot help.
   */
  record Rejected<T>(int status, Optional<ErrorEnvelope> error) implements Response<T> {
    public Rejected {
      if (status < 400 || status > 499) {
        throw new IllegalArgumentException("status is not a 4xx: " + status);
      }
      requireNonNull(error, "error is null");
    }
  }

  /** {@code 401}: no token, or one the server does not accept. */
  record Unauthorized<T>(Optional<ErrorEnvelope> error) implements Response<T> {
    public Unauthorized {
      requireNonNull(error, "error is null");
    }
  }

  /**
   * The exchange did not produce a protocol answer: a connection or I/O error, a timeout, a {@code
   * 5xx}, an unexpected status, or a {@code 2xx} body that is not what the protocol says. Worth
   * retrying later. {@code reason} names what went wrong, never a token or an entry's content.
   * {@code retryAfter} is the server's {@code retry-after} (on a {@code 429} or {@code 503}): no
   * retry should come sooner.
   */
  record TransportFailure<T>(String reason, OptionalInt status, Optional<Duration> retryAfter)
      implements Response<T> {
    public TransportFailure {
      requireNonNull(reason, "reason is null");
      requireNonNull(status, "status is null");
      requireNonNull(retryAfter, "retryAfter is null");
    }

    public TransportFailure(String reason, OptionalInt status) {
      this(reason, status, Optional.empty());
    }
  }
}
