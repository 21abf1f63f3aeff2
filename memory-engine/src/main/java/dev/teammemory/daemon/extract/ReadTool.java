package dev.teammemory.daemon.extract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.model.AgentTool;
import dev.teammemory.daemon.model.InputSchema;
import dev.teammemory.daemon.model.ToolDefinition;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The agent's {@code Read} tool: a file's lines, numbered as Claude Code numbers them ({@code cat
 * -n}), at most {@value #MAX_LINES} from {@code offset}. Which files may be read is the permission
 * gate's decision.
 */
final class ReadTool implements AgentTool {

  static final int MAX_LINES = 2_000;
  private static final int MAX_LINE = 2_000;

  /** The most of one file that is read: {@value #MAX_LINES} long lines and then some. */
  private static final int MAX_BYTES = 8 * 1024 * 1024;

  @Override
  public ToolDefinition definition() {
    var schema =
        InputSchema.object()
            .string("file_path", "The absolute path of the file to read")
            .integer("offset", "The line to start at (1-based)")
            .integer("limit", "How many lines to read")
            .required("file_path")
            .build();
    return new ToolDefinition(
        MemoryWriteGate.READ, "Reads a file from the local filesystem, with line numbers.", schema);
  }

  @Override
  public Result execute(JsonNode input) {
    Path file = Path.of(input.path("file_path").asText());
    int offset = Math.max(1, input.path("offset").asInt(1));
    int limit = Math.max(1, Math.min(MAX_LINES, input.path("limit").asInt(MAX_LINES)));
    List<String> lines;
    boolean complete;
    try {
      // The agent may name a log of gigabytes: only a window of it is ever shown.
      TextFiles.Head head = TextFiles.head(file, MAX_BYTES);
      lines = head.text().lines().toList();
      complete = head.complete();
    } catch (NoSuchFileException missing) {
      return Result.error("file does not exist: " + file);
    } catch (IOException unreadable) {
      return Result.error("cannot read " + file + ": " + FailureWords.describe(unreadable));
    }
    StringBuilder text = new StringBuilder();
    for (int i = offset - 1; i < Math.min(lines.size(), offset - 1 + limit); i++) {
      String line = lines.get(i);
      text.append(String.format("%6d\t", i + 1))
          .append(line.length() > MAX_LINE ? line.substring(0, MAX_LINE) : line)
          .append('\n');
    }
    if (!complete && offset - 1 + limit >= lines.size()) {
      text.append("(only the first ").append(MAX_BYTES).append(" bytes of the file can be read)\n");
    }
    return Result.ok(text.isEmpty() ? "(the file is empty)" : text.toString());
  }
}
