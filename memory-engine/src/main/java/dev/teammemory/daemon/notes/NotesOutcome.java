package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What one request to update session notes did. As JSON ({@code tmem notes update --format json})
 * the kind is the field {@code outcome}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
  @JsonSubTypes.Type(value = NotesOutcome.Updated.class, name = "updated"),
  @JsonSubTypes.Type(value = NotesOutcome.NotDue.class, name = "not-due"),
  @JsonSubTypes.Type(value = NotesOutcome.Busy.class, name = "busy"),
  @JsonSubTypes.Type(value = NotesOutcome.Failed.class, name = "failed")
})
public sealed interface NotesOutcome {

  @JsonSerialize(using = ToStringSerializer.class)
  Path notes();

  /**
   * The notes were written.
   *
   * @param tokens the conversation's size when they were
   * @param writer who wrote them: the offline writer or a model
   * @param lastSummarizedMessage the last message the notes cover, for compaction
   */
  @JsonPropertyOrder({"notes", "tokens", "writer", "lastSummarizedMessage"})
  record Updated(
      @JsonSerialize(using = ToStringSerializer.class) Path notes,
      long tokens,
      String writer,
      @JsonIgnore Optional<String> lastSummarizedMessage)
      implements NotesOutcome {

    @JsonProperty("lastSummarizedMessage")
    String lastSummarizedMessageOrNull() {
      return lastSummarizedMessage.orElse(null);
    }

    public Updated {
      requireNonNull(notes, "notes is null");
      requireNonNull(writer, "writer is null");
      requireNonNull(lastSummarizedMessage, "lastSummarizedMessage is null");
    }
  }

  /** The thresholds are not met yet; nothing was written. */
  record NotDue(
      @JsonSerialize(using = ToStringSerializer.class) Path notes, long tokens, String reason)
      implements NotesOutcome {
    public NotDue {
      requireNonNull(notes, "notes is null");
      requireNonNull(reason, "reason is null");
    }
  }

  /** Another update of the same notes is running; one runs at a time. */
  record Busy(@JsonSerialize(using = ToStringSerializer.class) Path notes) implements NotesOutcome {
    public Busy {
      requireNonNull(notes, "notes is null");
    }
  }

  /** The update failed; the notes are as they were. */
  record Failed(@JsonSerialize(using = ToStringSerializer.class) Path notes, String reason)
      implements NotesOutcome {
    public Failed {
      requireNonNull(notes, "notes is null");
      requireNonNull(reason, "reason is null");
    }
  }
}
