package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.nio.file.Path;
import java.time.Instant;

/**
 * One memory surfaced for a query, as an agent is given it.
 *
 * @param header the reference's header line, with a freshness note for memories older than a day
 * @param content the file, cut at 200 lines or 4,096 bytes with a note saying so
 * @param ageDays whole days since the file changed
 */
@JsonPropertyOrder({
  "path",
  "filename",
  "modified",
  "ageDays",
  "header",
  "content",
  "truncated",
  "bytes"
})
public record RecalledMemory(
    @JsonProperty("path") @JsonSerialize(using = ToStringSerializer.class) Path file,
    String filename,
    @JsonSerialize(using = ToStringSerializer.class) Instant modified,
    long ageDays,
    String header,
    String content,
    boolean truncated) {

  public RecalledMemory {
    requireNonNull(file, "file is null");
    requireNonNull(filename, "filename is null");
    requireNonNull(modified, "modified is null");
    requireNonNull(header, "header is null");
    requireNonNull(content, "content is null");
    if (ageDays < 0) {
      throw new IllegalArgumentException("ageDays must not be negative: " + ageDays);
    }
  }

  /** What the agent reads: the header, then the content. */
  public String render() {
    return header + "\n" + content;
  }

  /** What this memory costs the session's budget. */
  @JsonProperty("bytes")
  public long bytes() {
    return RecallSessions.utf8Length(content);
  }
}
