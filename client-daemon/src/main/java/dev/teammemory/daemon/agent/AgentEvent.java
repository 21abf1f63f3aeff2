package dev.teammemory.daemon.agent;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Optional;

/** The agent events memory answers, as the agents name them and as tmem's hooks do. */
public enum AgentEvent {
  SESSION_START("SessionStart", "session-start"),
  USER_PROMPT_SUBMIT("UserPromptSubmit", "user-prompt"),
  PRE_COMPACT("PreCompact", "pre-compact"),
  STOP("Stop", "stop");

  private final String label;
  private final String command;

  AgentEvent(String label, String command) {
    this.label = label;
    this.command = command;
  }

  /** The event's name in Claude Code's (and Codex's) settings and hook JSON. */
  public String label() {
    return label;
  }

  /** The {@code tmem hook} subcommand, which is also the local API's {@code /v1/hooks/<name>}. */
  public String command() {
    return command;
  }

  /** The event a {@code tmem hook} subcommand answers. */
  public static Optional<AgentEvent> ofCommand(String command) {
    requireNonNull(command, "command is null");
    return Arrays.stream(values()).filter(event -> event.command.equals(command)).findFirst();
  }
}
