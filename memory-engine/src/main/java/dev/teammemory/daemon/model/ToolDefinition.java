package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool offered to the model: its name, what it does, and the JSON schema of its input. */
public record ToolDefinition(String name, String description, JsonNode inputSchema) {

  public ToolDefinition {
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    requireNonNull(inputSchema, "inputSchema is null");
    if (!name.matches("[a-zA-Z0-9_-]{1,64}")) {
      throw new IllegalArgumentException("tool names are 1-64 letters, digits, _ or -: " + name);
    }
    if (!inputSchema.isObject()) {
      throw new IllegalArgumentException("an input schema is a JSON object: " + inputSchema);
    }
    inputSchema = inputSchema.deepCopy();
  }
}
