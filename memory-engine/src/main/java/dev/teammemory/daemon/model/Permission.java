package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;

/** A permission gate's answer for one tool call. */
public sealed interface Permission {

  /** Run the tool with this input (the gate may have rewritten it). */
  record Allow(JsonNode input) implements Permission {
    public Allow {
      requireNonNull(input, "input is null");
      input = input.deepCopy();
    }
  }

  /** Do not run the tool; the message goes back to the model as an error result. */
  record Deny(String message) implements Permission {
    public Deny {
      requireNonNull(message, "message is null");
    }
  }
}
