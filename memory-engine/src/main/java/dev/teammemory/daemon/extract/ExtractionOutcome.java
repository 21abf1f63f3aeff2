package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.nio.file.Path;
import java.util.List;

/**
 * What one request to extract memories after a turn did. As JSON ({@code tmem extract --format
 * json}) the kind is the field {@code outcome}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
  @JsonSubTypes.Type(value = ExtractionOutcome.Extracted.class, name = "extracted"),
  @JsonSubTypes.Type(value = ExtractionOutcome.Skipped.class, name = "skipped"),
  @JsonSubTypes.Type(value = ExtractionOutcome.Coalesced.class, name = "coalesced"),
  @JsonSubTypes.Type(value = ExtractionOutcome.Failed.class, name = "failed")
})
public sealed interface ExtractionOutcome {

  /**
   * One file the extraction wrote.
   *
   * @param change {@code created}, {@code updated}, {@code unchanged}, {@code appended} or {@code
   *     written} (by a model)
   */
  record Change(@JsonSerialize(using = ToStringSerializer.class) Path file, String change) {
    public Change {
      requireNonNull(file, "file is null");
      requireNonNull(change, "change is null");
    }
  }

  /**
   * Something that was not saved, and why.
   *
   * @param excerpt what the user said, cut short; empty when it looked like a secret
   */
  record Refusal(String reason, String excerpt) {
    public Refusal {
      requireNonNull(reason, "reason is null");
      requireNonNull(excerpt, "excerpt is null");
    }
  }

  /**
   * The extraction ran (possibly saving nothing).
   *
   * @param writer the offline extractor or the model
   * @param messages how many new messages it looked at
   * @param trailingRuns extra runs for requests that arrived while it was running, coalesced
   */
  @JsonPropertyOrder({"writer", "messages", "trailingRuns", "changes", "refusals"})
  record Extracted(
      String writer, int messages, List<Change> changes, List<Refusal> refusals, int trailingRuns)
      implements ExtractionOutcome {
    public Extracted {
      requireNonNull(writer, "writer is null");
      changes = List.copyOf(changes);
      refusals = List.copyOf(refusals);
    }
  }

  /**
   * Nothing to do: no new messages, the turn still running, auto memory off, or the agent saved
   * itself.
   */
  record Skipped(String reason) implements ExtractionOutcome {
    public Skipped {
      requireNonNull(reason, "reason is null");
    }
  }

  /** Another extraction is running; it will make one more run for this request when it ends. */
  record Coalesced() implements ExtractionOutcome {}

  /** The model failed; the messages will be looked at again after the next turn. */
  record Failed(String reason) implements ExtractionOutcome {
    public Failed {
      requireNonNull(reason, "reason is null");
    }
  }
}
