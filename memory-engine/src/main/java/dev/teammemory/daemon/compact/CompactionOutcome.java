package dev.teammemory.daemon.compact;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a request to compact a session did. As JSON (what {@code tmem compact --format json}, the
 * local API and the MCP server print) the kind is the field {@code outcome}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
  @JsonSubTypes.Type(value = CompactionOutcome.Compacted.class, name = "compacted"),
  @JsonSubTypes.Type(value = CompactionOutcome.NotNeeded.class, name = "not-needed"),
  @JsonSubTypes.Type(value = CompactionOutcome.CircuitOpen.class, name = "circuit-open"),
  @JsonSubTypes.Type(value = CompactionOutcome.Failed.class, name = "failed")
})
public sealed interface CompactionOutcome {

  /** How the summary was made. */
  enum Level {
    /** Level 1: the session notes replace the older messages; no model call. */
    SESSION_NOTES(1),
    /** Level 2: a full nine-section summary, by the model or offline. */
    SUMMARY(2),
    /**
     * Level 3: a full summary after dropping the oldest rounds because the request was too long.
     */
    TRUNCATED_SUMMARY(3);

    private final int number;

    Level(int number) {
      this.number = number;
    }

    @JsonValue
    public int number() {
      return number;
    }
  }

  /**
   * The conversation was compacted.
   *
   * @param writer who wrote the summary: the session notes, a model, or the offline summarizer
   * @param fallbacks why each cheaper level was not used, in order
   * @param lines the compacted conversation, one JSON object per entry in the transcript's shapes:
   *     the boundary, the summary, the kept messages, files read again, then the session's title
   *     and tags
   */
  record Compacted(
      Level level,
      String writer,
      String trigger,
      long preTokens,
      long postTokens,
      long threshold,
      int keptMessages,
      int promptTooLongRetries,
      List<String> fallbacks,
      @JsonSerialize(contentUsing = ToStringSerializer.class) List<Path> restoredFiles,
      @JsonIgnore List<String> lines)
      implements CompactionOutcome {

    private static final ObjectMapper JSON = new ObjectMapper();

    public Compacted {
      requireNonNull(level, "level is null");
      requireNonNull(writer, "writer is null");
      requireNonNull(trigger, "trigger is null");
      fallbacks = List.copyOf(fallbacks);
      restoredFiles = List.copyOf(restoredFiles);
      lines = List.copyOf(lines);
    }

    /** The lines as JSON objects, for the JSON form of the outcome. */
    @JsonProperty("messages")
    List<JsonNode> messages() {
      List<JsonNode> messages = new ArrayList<>();
      for (String line : lines) {
        try {
          messages.add(JSON.readTree(line));
        } catch (IOException impossible) {
          throw new IllegalStateException(
              "compaction produced a line that is not JSON", impossible);
        }
      }
      return messages;
    }
  }

  /** Automatic compaction is not due: the conversation is below the threshold. */
  record NotNeeded(@JsonProperty("preTokens") long tokens, long threshold)
      implements CompactionOutcome {}

  /** Automatic compaction failed too often in a row; it is not tried again until one succeeds. */
  record CircuitOpen(int consecutiveFailures) implements CompactionOutcome {}

  /** Every level failed; the transcript is as it was. */
  @JsonPropertyOrder({"reason", "consecutiveFailures", "fallbacks"})
  record Failed(String reason, List<String> fallbacks, int consecutiveFailures)
      implements CompactionOutcome {
    public Failed {
      requireNonNull(reason, "reason is null");
      fallbacks = List.copyOf(fallbacks);
    }
  }
}
