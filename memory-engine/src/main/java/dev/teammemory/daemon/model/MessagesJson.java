package dev.teammemory.daemon.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The Messages API's JSON shapes, written and read by hand so that nothing unknown slips in. */
final class MessagesJson {

  static final ObjectMapper JSON = new ObjectMapper();

  private MessagesJson() {}

  static String request(ModelRequest request) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", request.model());
    body.put("max_tokens", request.maxTokens());
    if (!request.system().isEmpty()) {
      body.put("system", request.system());
    }
    ArrayNode messages = body.putArray("messages");
    for (ModelMessage message : request.messages()) {
      ObjectNode node = messages.addObject();
      node.put("role", message.role().wireName());
      ArrayNode content = node.putArray("content");
      for (ModelContent block : message.content()) {
        content.add(block(block));
      }
    }
    if (!request.tools().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      for (ToolDefinition tool : request.tools()) {
        ObjectNode node = tools.addObject();
        node.put("name", tool.name());
        node.put("description", tool.description());
        node.set("input_schema", tool.inputSchema());
      }
      ObjectNode choice = body.putObject("tool_choice");
      switch (request.toolChoice()) {
        case ToolChoice.Auto auto -> choice.put("type", "auto");
        case ToolChoice.Any any -> choice.put("type", "any");
        case ToolChoice.Tool tool -> choice.put("type", "tool").put("name", tool.name());
      }
    }
    return body.toString();
  }

  private static ObjectNode block(ModelContent block) {
    ObjectNode node = JSON.createObjectNode();
    switch (block) {
      case ModelContent.Text text -> node.put("type", "text").put("text", text.text());
      case ModelContent.ToolUse toolUse -> {
        node.put("type", "tool_use").put("id", toolUse.id()).put("name", toolUse.name());
        node.set("input", toolUse.input());
      }
      case ModelContent.ToolResult result ->
          node.put("type", "tool_result")
              .put("tool_use_id", result.toolUseId())
              .put("content", result.content())
              .put("is_error", result.isError());
    }
    return node;
  }

  /** Reads a successful response; empty when the body is not a Messages API message. */
  static Optional<ModelResponse> response(String body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException notJson) {
      return Optional.empty();
    }
    if (root == null || !root.isObject() || !root.path("content").isArray()) {
      return Optional.empty();
    }
    List<ModelContent> content = new ArrayList<>();
    for (JsonNode block : root.get("content")) {
      switch (block.path("type").asText("")) {
        case "text" -> content.add(new ModelContent.Text(block.path("text").asText("")));
        case "tool_use" ->
            content.add(
                new ModelContent.ToolUse(
                    block.path("id").asText(""),
                    block.path("name").asText(""),
                    block.has("input") ? block.get("input") : JSON.createObjectNode()));
        default -> {
          // Thinking and server-tool blocks are not requested; ignoring them keeps the reply
          // usable.
        }
      }
    }
    JsonNode usage = root.path("usage");
    return Optional.of(
        new ModelResponse(
            root.path("id").asText(""),
            content,
            root.path("stop_reason").asText(""),
            usage.path("input_tokens").asLong(0),
            usage.path("output_tokens").asLong(0)));
  }

  /** The {@code error} object of an API error body. */
  record ApiError(String type, String message) {}

  /** The error an error body describes, when it is the API's error envelope. */
  static Optional<ApiError> error(String body) {
    try {
      JsonNode error = JSON.readTree(body).path("error");
      if (error.isObject()) {
        return Optional.of(
            new ApiError(error.path("type").asText("api_error"), error.path("message").asText("")));
      }
    } catch (IOException | RuntimeException notJson) {
      // Proxies answer with HTML; the status alone has to do.
    }
    return Optional.empty();
  }
}
