package dev.teammemory.daemon.agent;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What memory answers an agent's event. An adapter prints the agent's part in the agent's format
 * and gives the notices to the person (stderr, or the hook log where nobody reads stderr); neither
 * part ever holds a stack trace or an exception's class name.
 */
public sealed interface HookAnswer {

  /** What the person should know and the agent need not: a warning, an index left out. */
  List<String> notices();

  /**
   * Context for the agent ({@code hookSpecificOutput.additionalContext}), already within the budget
   * of the agent's answer; empty when there is nothing to add.
   */
  record Context(AgentEvent event, String text, List<String> notices) implements HookAnswer {
    public Context {
      requireNonNull(event, "event is null");
      requireNonNull(text, "text is null");
      notices = List.copyOf(notices);
    }
  }

  /** Plain text for the agent: PreCompact's custom instructions for its compaction. */
  record Instructions(Optional<String> text, List<String> notices) implements HookAnswer {
    public Instructions {
      requireNonNull(text, "text is null");
      notices = List.copyOf(notices);
    }
  }

  /** Nothing for the agent, and nothing went wrong. */
  record Nothing(List<String> notices) implements HookAnswer {
    public Nothing {
      notices = List.copyOf(notices);
    }

    public static Nothing quietly() {
      return new Nothing(List.of());
    }
  }

  /**
   * Something for the person to fix (a malformed model variable, a recall that failed); the agent
   * goes on without memory's answer. A hook adapter exits 1, which the agent shows and ignores.
   *
   * @param problem in words, for the person
   */
  record Refused(String problem) implements HookAnswer {
    public Refused {
      requireNonNull(problem, "problem is null");
    }

    @Override
    public List<String> notices() {
      return List.of();
    }
  }
}
