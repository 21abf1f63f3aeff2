package dev.teammemory.daemon.extract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.model.AgentTool;
import dev.teammemory.daemon.model.InputSchema;
import dev.teammemory.daemon.model.ToolDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The agent's {@code Write} tool: creates or replaces a whole file, folders included, atomically.
 * Where it may write is the permission gate's decision, made before it runs.
 */
final class WriteTool implements AgentTool {

  @Override
  public ToolDefinition definition() {
    var schema =
        InputSchema.object()
            .string("file_path", "The absolute path of the file to write")
            .string("content", "The whole content of the file")
            .required("file_path", "content")
            .build();
    return new ToolDefinition(
        MemoryWriteGate.WRITE, "Writes a file, replacing it if it exists.", schema);
  }

  @Override
  public Result execute(JsonNode input) {
    JsonNode filePath = input.get("file_path");
    JsonNode content = input.get("content");
    if (filePath == null || !filePath.isTextual() || content == null || !content.isTextual()) {
      return Result.error("file_path and content are required strings");
    }
    Path file = Path.of(filePath.asText());
    try {
      AtomicFiles.write(file, content.asText().getBytes(StandardCharsets.UTF_8));
    } catch (IOException failed) {
      return Result.error("cannot write " + file + ": " + FailureWords.describe(failed));
    }
    return Result.ok("wrote " + file);
  }
}
