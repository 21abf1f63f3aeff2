package dev.teammemory.server.errors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;

/**
 * An unexpected failure as the log tells it: what kind of failure, in words, and where in our code
 * it surfaced. Never an exception's message: a driver's or a parser's may quote what a caller sent
 * (pgjdbc's batch errors quote every bound value, Jackson's quote the input), and that may be
 * memory content, a key or a token.
 */
public final class UnexpectedFailure {

  private static final String OUR_CODE = "dev.teammemory.";

  private UnexpectedFailure() {}

  /**
   * {@code a database statement failed (SQL state 22021) in EntryStore.put (EntryStore.java:180)}.
   */
  public static String describe(Throwable failure) {
    return kind(failure) + where(failure);
  }

  /** The kind of failure: the first cause along the chain that says more than "failed". */
  static String kind(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = next(cause)) {
      switch (cause) {
        case SQLException sql -> {
          return "a database statement failed"
              + (sql.getSQLState() == null ? "" : " (SQL state " + sql.getSQLState() + ")");
        }
        case OutOfMemoryError memory -> {
          return "the server ran out of memory";
        }
        case StackOverflowError overflow -> {
          return "a call nested too deeply";
        }
        case IOException io -> {
          return "reading or writing a stream failed";
        }
        case UncheckedIOException io -> {
          return "reading or writing a stream failed";
        }
        default -> {}
      }
    }
    return switch (failure) {
      case IllegalStateException state -> "the server reached a state it does not expect";
      case IllegalArgumentException argument -> "a value the code does not expect";
      case NullPointerException missing -> "a value the code expects is missing";
      case Error error -> "the Java runtime failed";
      default -> "an internal error";
    };
  }

  /** Where the failure surfaced in our code: its deepest cause's first frame of ours. */
  static String where(Throwable failure) {
    Throwable deepest = failure;
    for (Throwable cause = failure; cause != null; cause = next(cause)) {
      deepest = cause;
    }
    for (Throwable cause : new Throwable[] {deepest, failure}) {
      for (StackTraceElement frame : cause.getStackTrace()) {
        if (frame.getClassName().startsWith(OUR_CODE)) {
          String className = frame.getClassName();
          return " in "
              + className.substring(className.lastIndexOf('.') + 1)
              + "."
              + frame.getMethodName()
              + " ("
              + frame.getFileName()
              + ":"
              + frame.getLineNumber()
              + ")";
        }
      }
    }
    return "";
  }

  private static Throwable next(Throwable cause) {
    return cause.getCause() == cause ? null : cause.getCause();
  }
}
