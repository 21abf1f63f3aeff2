package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** One Messages API request: {@code POST /v1/messages}. */
public record ModelRequest(
    String model,
    int maxTokens,
    String system,
    List<ModelMessage> messages,
    List<ToolDefinition> tools,
    ToolChoice toolChoice) {

  public ModelRequest {
    requireNonNull(model, "model is null");
    requireNonNull(system, "system is null");
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
    requireNonNull(toolChoice, "toolChoice is null");
    if (model.isBlank()) {
      throw new IllegalArgumentException("model is blank");
    }
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be 1 or more: " + maxTokens);
    }
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a request needs at least one message");
    }
  }
}
