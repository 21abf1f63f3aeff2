package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

/** What a model call produced: an answer, or the reason there is none. */
public sealed interface ModelOutcome<T> {

  record Answered<T>(T value) implements ModelOutcome<T> {
    public Answered {
      requireNonNull(value, "value is null");
    }
  }

  record Failed<T>(ModelFailure failure) implements ModelOutcome<T> {
    public Failed {
      requireNonNull(failure, "failure is null");
    }
  }
}
