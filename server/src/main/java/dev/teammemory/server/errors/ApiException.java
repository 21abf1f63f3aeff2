package dev.teammemory.server.errors;

import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.ErrorEnvelope;
import java.util.Map;

/**
 * A request the server refuses with a protocol error: its status and the error envelope the client
 * reads. Thrown by the few steps that stop a request ({@code 401}, {@code 400}, {@code 404}, …) and
 * mapped once by {@link ErrorResponses}. The message never holds a token or content.
 */
public final class ApiException extends RuntimeException {

  private final int status;
  private final ErrorEnvelope envelope;
  private final Map<String, String> headers;

  public ApiException(int status, ErrorEnvelope envelope, Map<String, String> headers) {
    // No stack trace: these are expected outcomes, and filling one in costs time on hot paths.
    super(envelope.error().message(), null, false, false);
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("not an error status: " + status);
    }
    this.status = status;
    this.envelope = requireNonNull(envelope, "envelope is null");
    this.headers = Map.copyOf(requireNonNull(headers, "headers is null"));
  }

  public ApiException(int status, ErrorEnvelope envelope) {
    this(status, envelope, Map.of());
  }

  /** An error with a message, a stable {@code error_code} and extra details. */
  public static ApiException of(
      int status, String errorCode, String message, Map<String, ?> details) {
    return new ApiException(status, ErrorEnvelope.of(errorCode, message, details));
  }

  public static ApiException of(int status, String errorCode, String message) {
    return of(status, errorCode, message, Map.of());
  }

  public int status() {
    return status;
  }

  public ErrorEnvelope envelope() {
    return envelope;
  }

  /** Extra response headers, such as {@code WWW-Authenticate} on a {@code 401}. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The {@code error_code} of the envelope. */
  public String errorCode() {
    return envelope.errorCode().orElseThrow();
  }
}
