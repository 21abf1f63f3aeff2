package dev.teammemory.daemon.transcript;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes transcripts in Claude Code's JSONL format for tests and benchmarks: user and assistant
 * messages linked by parent uuids, tool calls followed by their results, assistant usage that
 * states the context size.
 */
public final class TranscriptBuilder {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String sessionId;
  private final String cwd;
  private final List<String> lines = new ArrayList<>();
  private String parent;
  private int counter;
  private Instant clock = Instant.parse("2025-06-01T09:00:00Z");

  public TranscriptBuilder(String sessionId, String cwd) {
    this.sessionId = sessionId;
    this.cwd = cwd;
  }

  public TranscriptBuilder user(String text) {
    ObjectNode entry = entry("user");
    ObjectNode message = entry.putObject("message");
    message.put("role", "user");
    message.put("content", text);
    return add(entry);
  }

  /** An assistant text reply whose API usage says the context is {@code contextTokens} big. */
  public TranscriptBuilder assistant(String text, long contextTokens) {
    ObjectNode entry = assistantEntry(contextTokens);
    ((ArrayNode) entry.path("message").path("content"))
        .addObject()
        .put("type", "text")
        .put("text", text);
    return add(entry);
  }

  /** An assistant tool call and, unless {@code result} is null, its result. */
  public TranscriptBuilder toolCall(
      String name, Map<String, String> input, String result, boolean error, long contextTokens) {
    String id = "toolu_" + sessionId.substring(0, 4) + "_" + (counter + 1);
    ObjectNode entry = assistantEntry(contextTokens);
    ObjectNode use = ((ArrayNode) entry.path("message").path("content")).addObject();
    use.put("type", "tool_use").put("id", id).put("name", name);
    ObjectNode inputNode = use.putObject("input");
    input.forEach(inputNode::put);
    add(entry);
    if (result != null) {
      ObjectNode answer = entry("user");
      ObjectNode message = answer.putObject("message");
      message.put("role", "user");
      ObjectNode block = message.putArray("content").addObject();
      block.put("type", "tool_result").put("tool_use_id", id).put("content", result);
      if (error) {
        block.put("is_error", true);
      }
      add(answer);
    }
    return this;
  }

  public String lastUuid() {
    return parent;
  }

  public String build() {
    return String.join("\n", lines) + "\n";
  }

  public Path writeTo(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, build(), StandardCharsets.UTF_8);
    return file;
  }

  /** Appends what was added since the last write, as the agent appends to its transcript. */
  public Path appendTo(Path file, int fromLine) throws IOException {
    Files.createDirectories(file.getParent());
    StringBuilder more = new StringBuilder();
    for (String line : lines.subList(fromLine, lines.size())) {
      more.append(line).append('\n');
    }
    Files.writeString(
        file,
        more.toString(),
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    return file;
  }

  public int lineCount() {
    return lines.size();
  }

  private ObjectNode assistantEntry(long contextTokens) {
    ObjectNode entry = entry("assistant");
    ObjectNode message = entry.putObject("message");
    message.put("id", "msg_" + sessionId.substring(0, 4) + "_" + (counter + 1));
    message.put("type", "message");
    message.put("role", "assistant");
    message.put("model", "claude-sonnet-4-5");
    message.putArray("content");
    ObjectNode usage = message.putObject("usage");
    usage.put("input_tokens", Math.max(0, contextTokens - 100));
    usage.put("cache_creation_input_tokens", 0);
    usage.put("cache_read_input_tokens", 0);
    usage.put("output_tokens", Math.min(100, contextTokens));
    return entry;
  }

  private ObjectNode entry(String type) {
    counter++;
    clock = clock.plusSeconds(5);
    ObjectNode entry = JSON.createObjectNode();
    entry.put("parentUuid", parent);
    entry.put("isSidechain", false);
    entry.put("userType", "external");
    entry.put("cwd", cwd);
    entry.put("sessionId", sessionId);
    entry.put("version", "2.0.14");
    entry.put("type", type);
    entry.put("uuid", sessionId.substring(0, 8) + "-" + counter);
    entry.put("timestamp", clock.toString());
    return entry;
  }

  private TranscriptBuilder add(ObjectNode entry) {
    parent = entry.path("uuid").asText();
    lines.add(entry.toString());
    return this;
  }
}
