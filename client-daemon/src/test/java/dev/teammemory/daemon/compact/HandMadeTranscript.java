package dev.teammemory.daemon.compact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes transcripts in Claude Code's JSONL shapes, line by line, as the agent would: user and
 * assistant messages linked by {@code parentUuid}, responses with {@code message.id} and usage,
 * parallel tool calls as fragments sharing one id, tool results, images, compact boundaries, titles
 * and tags. Uuids are {@code u-001}, {@code u-002}… so tests can name them.
 */
public final class HandMadeTranscript {

  static final ObjectMapper JSON = new ObjectMapper();

  private final String sessionId;
  private final String cwd;
  private final List<ObjectNode> lines = new ArrayList<>();
  private String lastUuid;
  private int uuids;
  private int responses;
  private Instant time = Instant.parse("2026-03-02T09:00:00Z");

  public HandMadeTranscript(String sessionId, String cwd) {
    this.sessionId = sessionId;
    this.cwd = cwd;
  }

  /** About {@code tokens} tokens of distinct filler words (four characters a token). */
  public static String words(String topic, int tokens) {
    StringBuilder text = new StringBuilder();
    int i = 0;
    while (text.length() < tokens * 4) {
      text.append(topic).append(i++ % 97).append(' ');
    }
    return text.toString().strip();
  }

  public String user(String text) {
    ObjectNode entry = entry("user");
    entry.putObject("message").put("role", "user").put("content", text);
    return add(entry);
  }

  /** A user message with an image block before its text. */
  public String userWithImage(String text) {
    ObjectNode entry = entry("user");
    ArrayNode content = entry.putObject("message").put("role", "user").putArray("content");
    content
        .addObject()
        .put("type", "image")
        .putObject("source")
        .put("type", "base64")
        .put("media_type", "image/png")
        .put("data", "iVBORw0KGgo=");
    content.addObject().put("type", "text").put("text", text);
    return add(entry);
  }

  /** A complete assistant response with text; returns its uuid. */
  public String assistant(String text) {
    return assistant(text, 0);
  }

  /** An assistant response whose usage says the context held {@code contextTokens}. */
  public String assistant(String text, long contextTokens) {
    ObjectNode entry = response(newResponseId(), contextTokens);
    ((ArrayNode) entry.path("message").path("content"))
        .addObject()
        .put("type", "text")
        .put("text", text);
    return add(entry);
  }

  /** A new response id, for {@link #toolCall} fragments that belong to one response. */
  public String newResponseId() {
    return "msg_" + String.format("%03d", ++responses);
  }

  /** One fragment of response {@code responseId}: a tool call. */
  public String toolCall(
      String responseId, String toolUseId, String tool, Map<String, String> input) {
    ObjectNode entry = response(responseId, 0);
    ObjectNode use = ((ArrayNode) entry.path("message").path("content")).addObject();
    use.put("type", "tool_use").put("id", toolUseId).put("name", tool);
    ObjectNode arguments = use.putObject("input");
    input.forEach(arguments::put);
    return add(entry);
  }

  /** A fragment of response {@code responseId} with text only. */
  public String text(String responseId, String text) {
    ObjectNode entry = response(responseId, 0);
    ((ArrayNode) entry.path("message").path("content"))
        .addObject()
        .put("type", "text")
        .put("text", text);
    return add(entry);
  }

  /** A fragment of response {@code responseId} with thinking only. */
  public String thinking(String responseId, String thought) {
    ObjectNode entry = response(responseId, 0);
    ((ArrayNode) entry.path("message").path("content"))
        .addObject()
        .put("type", "thinking")
        .put("thinking", thought)
        .put("signature", "sig");
    return add(entry);
  }

  public String toolResult(String toolUseId, String content, boolean isError) {
    ObjectNode entry = entry("user");
    ObjectNode block =
        entry.putObject("message").put("role", "user").putArray("content").addObject();
    block.put("type", "tool_result").put("tool_use_id", toolUseId).put("content", content);
    if (isError) {
      block.put("is_error", true);
    }
    entry.putObject("toolUseResult").put("stdout", "");
    return add(entry);
  }

  /** A tool result holding an image, as a screenshot tool returns. */
  public String toolResultWithImage(String toolUseId) {
    ObjectNode entry = entry("user");
    ObjectNode block =
        entry.putObject("message").put("role", "user").putArray("content").addObject();
    block.put("type", "tool_result").put("tool_use_id", toolUseId);
    block
        .putArray("content")
        .addObject()
        .put("type", "image")
        .putObject("source")
        .put("type", "base64")
        .put("media_type", "image/png")
        .put("data", "iVBORw0KGgo=");
    return add(entry);
  }

  /** What Claude Code records as the result of a tool call the user refused. */
  public static final String REFUSED =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it"
          + " was a file edit, the new_string was NOT written to the file). STOP what you are doing"
          + " and wait for the user to tell you how to proceed.";

  /** The same, when the user typed a reason into the permission prompt. */
  public static String refusedWithReason(String reason) {
    return "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if"
        + " it was a file edit, the new_string was NOT written to the file). To tell you how to"
        + " proceed, the user said:\n"
        + reason;
  }

  /**
   * A tool call of a new response that the user refused, as Claude Code records it: the call, the
   * refusal as an error result, then the interruption.
   */
  public void refusedCall(
      String toolUseId, String tool, Map<String, String> input, String refusal) {
    toolCall(newResponseId(), toolUseId, tool, input);
    toolResult(toolUseId, refusal, true);
    user("[Request interrupted by user for tool use]");
  }

  /** A call and its result, as one round. */
  public void toolRound(String toolUseId, String tool, Map<String, String> input, String result) {
    toolCall(newResponseId(), toolUseId, tool, input);
    toolResult(toolUseId, result, false);
  }

  public String compactBoundary() {
    ObjectNode entry = entry("system");
    entry.set("parentUuid", null);
    entry.put("logicalParentUuid", lastUuid);
    entry.put("subtype", "compact_boundary");
    entry.put("content", "Conversation compacted");
    entry.putObject("compactMetadata").put("trigger", "auto").put("preTokens", 170000);
    String uuid = add(entry);
    ObjectNode summary = entry("user");
    summary
        .putObject("message")
        .put("role", "user")
        .put(
            "content",
            "This session is being continued from a previous conversation. Summary: earlier work.");
    summary.put("isCompactSummary", true);
    add(summary);
    return uuid;
  }

  public void customTitle(String title) {
    ObjectNode entry = JSON.createObjectNode();
    entry.put("type", "custom-title").put("customTitle", title).put("sessionId", sessionId);
    lines.add(entry);
  }

  public void tag(String tag) {
    ObjectNode entry = JSON.createObjectNode();
    entry.put("type", "tag").put("tag", tag).put("sessionId", sessionId);
    lines.add(entry);
  }

  public String jsonl() {
    StringBuilder text = new StringBuilder();
    lines.forEach(line -> text.append(line).append('\n'));
    return text.toString();
  }

  public Path write(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, jsonl(), StandardCharsets.UTF_8);
    return file;
  }

  public String lastUuid() {
    return lastUuid;
  }

  /** The first tool result whose call is missing from the messages, if any. */
  public static Optional<String> orphanToolResult(List<TranscriptEntry> messages) {
    return KeptMessages.orphanToolResult(messages);
  }

  public static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException notJson) {
      throw new AssertionError("not JSON: " + line, notJson);
    }
  }

  private ObjectNode response(String responseId, long contextTokens) {
    ObjectNode entry = entry("assistant");
    ObjectNode message = entry.putObject("message");
    message
        .put("id", responseId)
        .put("type", "message")
        .put("role", "assistant")
        .put("model", "claude-sonnet-4-5");
    message.putArray("content");
    message.put("stop_reason", (String) null);
    if (contextTokens > 0) {
      // Only responses that say how full the context was carry usage; the rest are estimated.
      ObjectNode usage = message.putObject("usage");
      usage.put("input_tokens", contextTokens - 100).put("output_tokens", 100);
      usage.put("cache_creation_input_tokens", 0).put("cache_read_input_tokens", 0);
    }
    entry.put("requestId", "req_" + responseId);
    return entry;
  }

  private ObjectNode entry(String type) {
    ObjectNode entry = JSON.createObjectNode();
    entry.put("parentUuid", lastUuid);
    entry.put("isSidechain", false);
    entry.put("userType", "external");
    entry.put("cwd", cwd);
    entry.put("sessionId", sessionId);
    entry.put("version", "2.1.88");
    entry.put("gitBranch", "main");
    entry.put("type", type);
    entry.put("uuid", String.format("u-%03d", ++uuids));
    time = time.plusSeconds(7);
    entry.put("timestamp", time.toString());
    return entry;
  }

  private String add(ObjectNode entry) {
    lines.add(entry);
    lastUuid = entry.path("uuid").asText();
    return lastUuid;
  }
}
