package dev.teammemory.daemon.transcript;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns one JSONL line into a {@link TranscriptEntry}. Tolerant by design: the agent's format grows
 * new fields and entry types, and a crash can tear the last line, so anything that is not a JSON
 * object is reported as unreadable and everything else is read as far as it goes.
 */
final class TranscriptParser {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TranscriptParser() {}

  static Optional<TranscriptEntry> parse(String line, int lineNumber) {
    JsonNode root;
    try {
      root = JSON.readTree(line);
    } catch (JsonProcessingException unreadable) {
      return Optional.empty();
    }
    if (root == null || !root.isObject()) {
      return Optional.empty();
    }
    JsonNode message = root.path("message");
    List<ContentBlock> content =
        message.isObject() ? blocks(message.get("content")) : blocks(root.get("content"));
    if (!message.isObject() && !root.path("type").asText().equals("system")) {
      // Only system entries carry their text outside a message; elsewhere "content" means
      // something else (a summary, a snapshot) and is not conversation.
      content = List.of();
    }
    return Optional.of(
        new TranscriptEntry(
            lineNumber,
            text(root, "type").orElse("unknown"),
            text(root, "subtype"),
            text(root, "uuid"),
            text(root, "parentUuid"),
            text(root, "logicalParentUuid"),
            text(root, "sessionId"),
            text(root, "timestamp").flatMap(TranscriptParser::instant),
            text(root, "cwd"),
            text(message, "role"),
            text(message, "id"),
            content,
            usage(message.get("usage")),
            text(message, "model").filter("<synthetic>"::equals).isPresent(),
            root.path("isMeta").asBoolean(false),
            root.path("isSidechain").asBoolean(false),
            root.path("isCompactSummary").asBoolean(false),
            message.isObject() && message.path("content").isTextual()));
  }

  private static List<ContentBlock> blocks(JsonNode content) {
    if (content == null || content.isNull() || content.isMissingNode()) {
      return List.of();
    }
    if (content.isTextual()) {
      return List.of(new ContentBlock.Text(content.asText()));
    }
    if (!content.isArray()) {
      return List.of(
          new ContentBlock.Other(content.getNodeType().name(), content.toString().length()));
    }
    List<ContentBlock> blocks = new ArrayList<>();
    for (JsonNode block : content) {
      blocks.add(block(block));
    }
    return blocks;
  }

  private static ContentBlock block(JsonNode block) {
    if (block.isTextual()) {
      return new ContentBlock.Text(block.asText());
    }
    String type = block.path("type").asText("");
    return switch (type) {
      case "text" -> new ContentBlock.Text(block.path("text").asText(""));
      case "thinking" -> new ContentBlock.Thinking(block.path("thinking").asText(""));
      case "tool_use" ->
          new ContentBlock.ToolUse(
              block.path("id").asText(""),
              block.path("name").asText(""),
              block.has("input") ? block.get("input") : JSON.createObjectNode());
      case "tool_result" ->
          new ContentBlock.ToolResult(
              block.path("tool_use_id").asText(""),
              blocks(block.get("content")),
              block.path("is_error").asBoolean(false));
      case "image" -> new ContentBlock.Image(block.path("source").path("media_type").asText(""));
      case "document" ->
          new ContentBlock.Document(
              block.path("source").path("media_type").asText(""), block.path("title").asText(""));
      default ->
          new ContentBlock.Other(type.isEmpty() ? "unknown" : type, block.toString().length());
    };
  }

  private static Optional<Usage> usage(JsonNode usage) {
    if (usage == null || !usage.isObject()) {
      return Optional.empty();
    }
    return Optional.of(
        new Usage(
            Math.max(0, usage.path("input_tokens").asLong(0)),
            Math.max(0, usage.path("output_tokens").asLong(0)),
            Math.max(0, usage.path("cache_creation_input_tokens").asLong(0)),
            Math.max(0, usage.path("cache_read_input_tokens").asLong(0))));
  }

  private static Optional<String> text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  private static Optional<Instant> instant(String timestamp) {
    try {
      return Optional.of(Instant.parse(timestamp));
    } catch (DateTimeParseException notAnInstant) {
      return Optional.empty();
    }
  }
}
