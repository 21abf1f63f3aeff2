package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool a model-driven agent may call. It runs only after the permission gate allowed it. */
public interface AgentTool {

  ToolDefinition definition();

  /** Runs the tool. Failures the model can act on are results with {@code isError}, not throws. */
  Result execute(JsonNode input);

  /** What the tool tells the model. */
  record Result(String content, boolean isError) {
    public Result {
      requireNonNull(content, "content is null");
    }

    public static Result ok(String content) {
      return new Result(content, false);
    }

    public static Result error(String content) {
      return new Result(content, true);
    }
  }
}
