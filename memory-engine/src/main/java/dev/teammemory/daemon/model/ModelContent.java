package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;

/** A content block of a Messages API message, in either direction. */
public sealed interface ModelContent {

  record Text(String text) implements ModelContent {
    public Text {
      requireNonNull(text, "text is null");
    }
  }

  /** A tool call the model asks for; {@code input} follows the tool's input schema. */
  record ToolUse(String id, String name, JsonNode input) implements ModelContent {
    public ToolUse {
      requireNonNull(id, "id is null");
      requireNonNull(name, "name is null");
      requireNonNull(input, "input is null");
      input = input.deepCopy();
    }
  }

  /** The answer to a tool call, sent back in a user message. */
  record ToolResult(String toolUseId, String content, boolean isError) implements ModelContent {
    public ToolResult {
      requireNonNull(toolUseId, "toolUseId is null");
      requireNonNull(content, "content is null");
    }
  }
}
