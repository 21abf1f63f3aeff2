package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a model with tools until it stops: each tool call first goes through the caller's {@link
 * PermissionGate}; allowed calls run, denied ones are answered with the gate's message as an error.
 * A tool the gate allows but this agent does not have is also an error, never a crash.
 */
public final class ModelAgent {

  private final AnthropicLanguageModel model;
  private final Map<String, AgentTool> tools = new LinkedHashMap<>();
  private final PermissionGate gate;

  public ModelAgent(AnthropicLanguageModel model, List<AgentTool> tools, PermissionGate gate) {
    this.model = requireNonNull(model, "model is null");
    this.gate = requireNonNull(gate, "gate is null");
    for (AgentTool tool : tools) {
      this.tools.put(tool.definition().name(), tool);
    }
  }

  /**
   * Runs the conversation to its end or to {@code maxTurns} model calls.
   *
   * @param messages the conversation so far; its last message is the user's
   */
  public AgentOutcome run(
      String modelName, int maxTokens, String system, List<ModelMessage> messages, int maxTurns) {
    if (maxTurns < 1) {
      throw new IllegalArgumentException("maxTurns must be 1 or more: " + maxTurns);
    }
    List<ModelMessage> conversation = new ArrayList<>(messages);
    List<AgentOutcome.ToolCall> calls = new ArrayList<>();
    List<ToolDefinition> definitions = tools.values().stream().map(AgentTool::definition).toList();
    for (int turn = 1; turn <= maxTurns; turn++) {
      ModelOutcome<ModelResponse> outcome =
          model.send(
              new ModelRequest(
                  modelName, maxTokens, system, conversation, definitions, new ToolChoice.Auto()));
      ModelResponse response;
      switch (outcome) {
        case ModelOutcome.Failed<ModelResponse> failed -> {
          return new AgentOutcome.Failed(failed.failure(), calls);
        }
        case ModelOutcome.Answered<ModelResponse> answered -> response = answered.value();
      }
      List<ModelContent.ToolUse> toolUses = response.toolUses();
      if (toolUses.isEmpty()) {
        return new AgentOutcome.Finished(turn, response.text(), calls);
      }
      conversation.add(new ModelMessage(ModelMessage.Role.ASSISTANT, response.content()));
      List<ModelContent> results = new ArrayList<>();
      for (ModelContent.ToolUse toolUse : toolUses) {
        ModelContent.ToolResult result = call(toolUse, calls);
        results.add(result);
      }
      conversation.add(new ModelMessage(ModelMessage.Role.USER, results));
    }
    return new AgentOutcome.TurnLimitReached(maxTurns, calls);
  }

  private ModelContent.ToolResult call(
      ModelContent.ToolUse toolUse, List<AgentOutcome.ToolCall> calls) {
    Permission permission = gate.check(toolUse.name(), toolUse.input());
    switch (permission) {
      case Permission.Deny deny -> {
        calls.add(new AgentOutcome.ToolCall(toolUse.name(), false, true));
        return new ModelContent.ToolResult(toolUse.id(), deny.message(), true);
      }
      case Permission.Allow allow -> {
        AgentTool tool = tools.get(toolUse.name());
        AgentTool.Result result =
            tool == null
                ? AgentTool.Result.error("no tool named " + toolUse.name() + " is available")
                : tool.execute(allow.input());
        calls.add(new AgentOutcome.ToolCall(toolUse.name(), true, result.isError()));
        return new ModelContent.ToolResult(toolUse.id(), result.content(), result.isError());
      }
    }
  }
}
