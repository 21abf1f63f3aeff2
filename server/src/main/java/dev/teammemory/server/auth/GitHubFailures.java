package dev.teammemory.server.auth;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.server.errors.ApiException;
import java.util.Map;
import java.util.Optional;

/** The {@code 503} of GitHub not answering, and finding our refusals in failures. */
final class GitHubFailures {

  /** How long a client should wait before it tries again while GitHub is down. */
  static final String RETRY_AFTER_SECONDS = "30";

  private GitHubFailures() {}

  /** The {@code 503} of an identity provider that cannot answer now. */
  static ApiException unavailable(String message) {
    return new ApiException(
        503,
        ErrorEnvelope.of(ErrorCodes.AUTH_PROVIDER_UNAVAILABLE, message + "; try again in a minute"),
        Map.of("Retry-After", RETRY_AFTER_SECONDS));
  }

  /** The refusal our own code put among a failure's causes, such as {@link GitHubUserAnswers}'s. */
  static Optional<ApiException> refusalIn(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof ApiException refusal) {
        return Optional.of(refusal);
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return Optional.empty();
  }

  /**
   * A short description of a failure for the log, in words (never Java's class names), with the
   * failure's own message where it has one; never a token, which no call to GitHub puts in one.
   */
  static String describe(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root instanceof com.fasterxml.jackson.core.JacksonException) {
      // A parser's message quotes what it read.
      return "GitHub's answer was not the JSON expected";
    }
    String words =
        switch (root) {
          case java.net.UnknownHostException unknown -> "GitHub's host name is not known";
          case java.net.ConnectException refused -> "nothing answers at GitHub's address";
          case java.net.SocketTimeoutException timeout -> "GitHub did not answer in time";
          case javax.net.ssl.SSLException tls -> "the secure connection to GitHub failed";
          case java.io.InterruptedIOException interrupted -> "the call was interrupted";
          case java.io.IOException io -> "the connection to GitHub failed";
          default -> "the call to GitHub failed";
        };
    return root.getMessage() == null ? words : words + " (" + root.getMessage() + ")";
  }
}
