package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.files.FailureWords;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;

/**
 * A Model Context Protocol server over stdio: JSON-RPC 2.0, one message per line. It answers {@code
 * initialize}, {@code ping}, {@code tools/list} and {@code tools/call} for three tools — {@code
 * recall}, {@code notes} and {@code compact} — whose results are the JSON the matching {@code tmem}
 * commands print. Notifications get no answer; a tool's own failure is a result with {@code
 * isError}, a protocol failure a JSON-RPC error.
 */
final class McpServer {

  static final String PROTOCOL_VERSION = "2025-06-18";

  private final MemoryServices services;
  private final String version;

  McpServer(MemoryServices services, String version) {
    this.services = requireNonNull(services, "services is null");
    this.version = requireNonNull(version, "version is null");
  }

  /** Serves until the input ends. */
  void serve(BufferedReader in, PrintWriter out) throws IOException {
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) {
        continue;
      }
      Optional<ObjectNode> response = handle(line);
      if (response.isPresent()) {
        out.println(response.get().toString());
        out.flush();
      }
    }
  }

  Optional<ObjectNode> handle(String line) {
    JsonNode message;
    try {
      message = MemoryServices.JSON.readTree(line);
    } catch (IOException notJson) {
      return Optional.of(error(null, -32700, "parse error: the line is not JSON"));
    }
    if (message == null || !message.isObject() || !message.path("method").isTextual()) {
      return Optional.of(
          error(
              message == null ? null : message.get("id"),
              -32600,
              "invalid request: a JSON-RPC request needs a method"));
    }
    JsonNode id = message.get("id");
    if (id == null) {
      return Optional.empty();
    }
    JsonNode params = message.path("params");
    return Optional.of(
        switch (message.get("method").asText()) {
          case "initialize" -> result(id, initialize(params));
          case "ping" -> result(id, MemoryServices.JSON.createObjectNode());
          case "tools/list" -> result(id, tools());
          case "tools/call" -> call(id, params);
          default -> error(id, -32601, "method not found: " + message.get("method").asText());
        });
  }

  private ObjectNode initialize(JsonNode params) {
    ObjectNode result = MemoryServices.JSON.createObjectNode();
    result.put("protocolVersion", params.path("protocolVersion").asText(PROTOCOL_VERSION));
    result.putObject("capabilities").putObject("tools").put("listChanged", false);
    result.putObject("serverInfo").put("name", "tmem").put("version", version);
    result.put(
        "instructions",
        "Team Memory's local memory engine: recall relevant memories for a task, read a session's"
            + " notes, and compact a Claude Code transcript.");
    return result;
  }

  private static ObjectNode tools() {
    ObjectNode result = MemoryServices.JSON.createObjectNode();
    ArrayNode tools = result.putArray("tools");
    ObjectNode recall =
        tool(
            tools,
            "recall",
            "The memories relevant to a query: at most 5 topic files not surfaced before in the session.");
    property(recall, "query", "string", "What the agent is about to work on", true);
    property(recall, "session", "string", "Session id: memories shown before are skipped", false);
    property(recall, "cwd", "string", "The project directory (absolute)", false);
    ((ObjectNode) recall.path("properties"))
        .putObject("tools")
        .put("type", "array")
        .put("description", "Tools the agent is using")
        .putObject("items")
        .put("type", "string");
    ObjectNode notes =
        tool(tools, "notes", "A session's notes (summary.md), kept from its transcript.");
    property(notes, "session", "string", "The session id", true);
    property(notes, "cwd", "string", "The project directory (absolute)", false);
    ObjectNode compact =
        tool(
            tools,
            "compact",
            "Compact a Claude Code transcript: boundary, summary and kept messages in the transcript's JSON shapes.");
    property(
        compact, "transcript", "string", "The session's JSONL transcript (absolute path)", true);
    property(
        compact,
        "notes",
        "string",
        "The session notes (absolute path; default: the session's)",
        false);
    property(compact, "lastSummarized", "string", "The last message uuid the notes cover", false);
    property(
        compact, "contextWindow", "integer", "The model's context window (default 200000)", false);
    property(compact, "maxOutput", "integer", "The model's maximum output (default 20000)", false);
    return result;
  }

  private static ObjectNode tool(ArrayNode tools, String name, String description) {
    ObjectNode tool = tools.addObject().put("name", name).put("description", description);
    ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
    schema.putObject("properties");
    schema.putArray("required");
    return schema;
  }

  private static void property(
      ObjectNode schema, String name, String type, String description, boolean required) {
    ((ObjectNode) schema.path("properties"))
        .putObject(name)
        .put("type", type)
        .put("description", description);
    if (required) {
      ((ArrayNode) schema.path("required")).add(name);
    }
  }

  private ObjectNode call(JsonNode id, JsonNode params) {
    String name = params.path("name").asText("");
    JsonNode arguments =
        params.path("arguments").isObject()
            ? params.get("arguments")
            : MemoryServices.JSON.createObjectNode();
    try {
      JsonNode answer =
          switch (name) {
            case "recall" -> services.recall(arguments);
            case "notes" -> {
              String session =
                  MemoryServices.text(arguments, "session")
                      .orElseThrow(() -> new MemoryServices.BadRequest("\"session\" is required"));
              yield services
                  .notes(session, MemoryServices.text(arguments, "cwd"))
                  .orElseThrow(
                      () ->
                          new MemoryServices.BadRequest(
                              "session " + session + " has no notes yet"));
            }
            case "compact" -> services.compact(arguments);
            default -> null;
          };
      if (answer == null) {
        return error(
            id, -32602, "unknown tool: " + name + "; the tools are recall, notes and compact");
      }
      return result(id, content(answer.toString(), false));
    } catch (MemoryServices.BadRequest bad) {
      return result(id, content(bad.getMessage(), true));
    } catch (IOException | RuntimeException failure) {
      return result(id, content(name + " failed: " + FailureWords.describe(failure), true));
    }
  }

  private static ObjectNode content(String text, boolean isError) {
    ObjectNode result = MemoryServices.JSON.createObjectNode();
    result.putArray("content").addObject().put("type", "text").put("text", text);
    result.put("isError", isError);
    return result;
  }

  private static ObjectNode result(JsonNode id, JsonNode result) {
    ObjectNode response = MemoryServices.JSON.createObjectNode().put("jsonrpc", "2.0");
    response.set("id", id);
    response.set("result", result);
    return response;
  }

  private static ObjectNode error(JsonNode id, int code, String message) {
    ObjectNode response = MemoryServices.JSON.createObjectNode().put("jsonrpc", "2.0");
    response.set("id", id == null ? MemoryServices.JSON.nullNode() : id);
    response.putObject("error").put("code", code).put("message", message);
    return response;
  }
}
