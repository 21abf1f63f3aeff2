package dev.teammemory.daemon.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * What a hook prints for the agent, in the shape Claude Code reads (and Codex, for SessionStart and
 * UserPromptSubmit): context as {@code hookSpecificOutput.additionalContext} JSON, PreCompact's
 * instructions as plain text.
 */
public final class HookOutput {

  private static final ObjectMapper JSON = new ObjectMapper();

  private HookOutput() {}

  public static String additionalContext(String hookEventName, String context) {
    ObjectNode root = JSON.createObjectNode();
    root.putObject("hookSpecificOutput")
        .put("hookEventName", hookEventName)
        .put("additionalContext", context);
    return root.toString();
  }

  /**
   * The line the hook prints on stdout (without its line break); empty when it prints nothing: the
   * agent has nothing to add, or the answer is a refusal, which goes to the person instead.
   */
  public static Optional<String> stdout(HookAnswer answer) {
    return switch (answer) {
      case HookAnswer.Context context ->
          context.text().isEmpty()
              ? Optional.empty()
              : Optional.of(additionalContext(context.event().label(), context.text()));
      case HookAnswer.Instructions instructions -> instructions.text();
      case HookAnswer.Nothing nothing -> Optional.empty();
      case HookAnswer.Refused refused -> Optional.empty();
    };
  }
}
