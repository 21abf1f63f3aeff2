package dev.teammemory.daemon.compact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The entries a compaction writes, in the agent's own JSONL shapes: the {@code compact_boundary}
 * system entry, the summary as a user message marked {@code isCompactSummary}, and files read again
 * as meta user messages. Fields every line carries ({@code sessionId}, {@code cwd}, {@code
 * version}, {@code gitBranch}, {@code userType}) are copied from the conversation's latest entry.
 */
final class TranscriptShapes {

  private static final List<String> COMMON_FIELDS =
      List.of("userType", "cwd", "sessionId", "version", "gitBranch", "isSidechain");

  private final ObjectNode template;
  private final Instant now;

  /**
   * @param latest the conversation's latest raw entry, whose common fields new entries share
   */
  TranscriptShapes(ObjectNode latest, Instant now) {
    this.template = TranscriptLines.JSON.createObjectNode();
    for (String field : COMMON_FIELDS) {
      JsonNode value = latest.get(field);
      if (value != null) {
        template.set(field, value.deepCopy());
      }
    }
    this.now = now;
  }

  ObjectNode boundary(String logicalParentUuid, String trigger, long preTokens) {
    ObjectNode boundary = base(null);
    boundary.put("logicalParentUuid", logicalParentUuid);
    boundary.put("type", "system");
    boundary.put("subtype", "compact_boundary");
    boundary.put("content", "Conversation compacted");
    boundary.put("isMeta", false);
    boundary.put("level", "info");
    ObjectNode metadata = boundary.putObject("compactMetadata");
    metadata.put("trigger", trigger);
    metadata.put("preTokens", preTokens);
    return boundary;
  }

  ObjectNode summary(String parentUuid, String text) {
    ObjectNode summary = userMessage(parentUuid, text);
    summary.put("isCompactSummary", true);
    summary.put("isVisibleInTranscriptOnly", true);
    return summary;
  }

  ObjectNode restoredFile(String parentUuid, RestoredFiles.RestoredFile file) {
    ObjectNode input =
        TranscriptLines.JSON.createObjectNode().put("file_path", file.path().toString());
    String text =
        file.byPath()
            ? file.content()
            : "Called the Read tool with the following input: "
                + input
                + "\nResult of calling the Read tool (read again after compaction):\n"
                + file.content();
    ObjectNode message =
        userMessage(parentUuid, "<system-reminder>\n" + text + "\n</system-reminder>");
    message.put("isMeta", true);
    return message;
  }

  private ObjectNode userMessage(String parentUuid, String text) {
    ObjectNode entry = base(parentUuid);
    entry.put("type", "user");
    ObjectNode message = entry.putObject("message");
    message.put("role", "user");
    message.put("content", text);
    return entry;
  }

  private ObjectNode base(String parentUuid) {
    ObjectNode entry = TranscriptLines.JSON.createObjectNode();
    entry.put("parentUuid", parentUuid);
    entry.setAll(template.deepCopy());
    entry.put("uuid", UUID.randomUUID().toString());
    entry.put("timestamp", now.toString());
    return entry;
  }
}
