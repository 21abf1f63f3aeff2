package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * Why a model call did not produce an answer. {@code message} is the API's own error message or a
 * description of the network failure; it never contains the prompt or the key.
 *
 * @param httpStatus the response status, or 0 when no response arrived
 * @param type the API's {@code error.type} ({@code rate_limit_error}, {@code overloaded_error},
 *     {@code invalid_request_error}…), or {@code network_error}, {@code malformed_response}, {@code
 *     interrupted}
 * @param attempts how many requests were sent, retries included
 */
public record ModelFailure(int httpStatus, String type, String message, int attempts) {

  public ModelFailure {
    requireNonNull(type, "type is null");
    requireNonNull(message, "message is null");
  }

  /** The conversation did not fit the model's context window. */
  public boolean isPromptTooLong() {
    return httpStatus == 413
        || (type.equals("invalid_request_error")
            && message.toLowerCase(Locale.ROOT).contains("prompt is too long"));
  }

  /** One line for a person: what failed and why. */
  public String describe() {
    String where = httpStatus == 0 ? type : "HTTP " + httpStatus + " " + type;
    return where
        + ": "
        + message
        + " (after "
        + attempts
        + (attempts == 1 ? " attempt)" : " attempts)");
  }
}
