package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** How a model-driven agent's run ended, with every tool call it attempted. */
public sealed interface AgentOutcome {

  List<ToolCall> toolCalls();

  /** The model stopped on its own. */
  record Finished(int turns, String finalText, List<ToolCall> toolCalls) implements AgentOutcome {
    public Finished {
      requireNonNull(finalText, "finalText is null");
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /** The run used all its turns; the tools it called did run. */
  record TurnLimitReached(int turns, List<ToolCall> toolCalls) implements AgentOutcome {
    public TurnLimitReached {
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /** A model call failed; tool calls before it did run. */
  record Failed(ModelFailure failure, List<ToolCall> toolCalls) implements AgentOutcome {
    public Failed {
      requireNonNull(failure, "failure is null");
      toolCalls = List.copyOf(toolCalls);
    }
  }

  /**
   * One tool call and what became of it.
   *
   * @param allowed whether the permission gate let it run
   * @param isError whether the result sent back was an error (a denial always is)
   */
  record ToolCall(String name, boolean allowed, boolean isError) {
    public ToolCall {
      requireNonNull(name, "name is null");
    }
  }
}
