package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

/** How the model may use the offered tools. */
public sealed interface ToolChoice {

  /** The model decides whether to call a tool. */
  record Auto() implements ToolChoice {}

  /** The model must call one of the tools. */
  record Any() implements ToolChoice {}

  /** The model must call this tool; how structured output is obtained. */
  record Tool(String name) implements ToolChoice {
    public Tool {
      requireNonNull(name, "name is null");
    }
  }
}
