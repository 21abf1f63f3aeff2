package dev.teammemory.daemon.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The JSON a SessionStart or UserPromptSubmit hook prints to add context for the agent. */
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
}
