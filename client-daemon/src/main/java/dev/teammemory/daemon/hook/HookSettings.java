package dev.teammemory.daemon.hook;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.agent.AgentEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The {@code hooks} section of Claude Code's {@code settings.json}, changed without touching
 * anything else: an event's existing matcher groups and commands stay as they are, ours are added
 * as a group of their own, and a command already there is not added twice.
 */
final class HookSettings {

  /** One hook this tool installs: the agent's event and the {@code tmem hook} subcommand. */
  record Hook(String event, String subcommand) {
    Hook {
      requireNonNull(event, "event is null");
      requireNonNull(subcommand, "subcommand is null");
    }
  }

  static final List<Hook> HOOKS =
      Arrays.stream(AgentEvent.values())
          .map(event -> new Hook(event.label(), event.command()))
          .toList();

  private HookSettings() {}

  /**
   * Adds our hooks to {@code settings} in place, taking out commands of ours that differ from the
   * ones wanted (an earlier install's JVM command, another option), so no event runs tmem twice.
   *
   * @param command the command each hook runs
   * @param ours whether a command already in the settings is one of tmem's
   * @return the events a hook was added to; empty when all were there already
   * @throws IllegalArgumentException naming the field when {@code hooks} has a shape Claude Code
   *     would not accept, so that nothing of the user's is overwritten
   */
  static List<String> install(
      ObjectNode settings, Function<Hook, String> command, Predicate<String> ours) {
    ObjectNode hooks = hooksObject(settings, true);
    List<String> added = new ArrayList<>();
    for (Hook hook : HOOKS) {
      String wanted = command.apply(hook);
      groups(hooks, hook.event());
      remove(hooks, hook, existing -> ours.test(existing) && !existing.equals(wanted));
      ArrayNode groups = groups(hooks, hook.event());
      if (contains(groups, wanted)) {
        continue;
      }
      ObjectNode group = groups.addObject();
      group.put("matcher", "");
      group.putArray("hooks").addObject().put("type", "command").put("command", wanted);
      added.add(hook.event());
    }
    return added;
  }

  /**
   * Removes the commands that are {@code ours}, and groups and events left empty by that;
   * everything else stays.
   *
   * @return how many commands were removed
   */
  static int uninstall(ObjectNode settings, Predicate<String> ours) {
    ObjectNode hooks = hooksObject(settings, false);
    if (hooks == null) {
      return 0;
    }
    int removed = 0;
    for (Hook hook : HOOKS) {
      removed += remove(hooks, hook, ours);
    }
    if (hooks.isEmpty()) {
      settings.remove("hooks");
    }
    return removed;
  }

  private static int remove(ObjectNode hooks, Hook hook, Predicate<String> unwanted) {
    JsonNode groups = hooks.get(hook.event());
    if (!(groups instanceof ArrayNode array)) {
      return 0;
    }
    int removed = 0;
    for (int g = array.size() - 1; g >= 0; g--) {
      JsonNode commands = array.get(g).get("hooks");
      if (!(commands instanceof ArrayNode list)) {
        continue;
      }
      for (int c = list.size() - 1; c >= 0; c--) {
        if (unwanted.test(list.get(c).path("command").asText(""))) {
          list.remove(c);
          removed++;
        }
      }
      if (list.isEmpty()) {
        array.remove(g);
      }
    }
    if (array.isEmpty()) {
      hooks.remove(hook.event());
    }
    return removed;
  }

  private static ObjectNode hooksObject(ObjectNode settings, boolean create) {
    JsonNode hooks = settings.get("hooks");
    if (hooks == null || hooks.isNull()) {
      return create ? settings.putObject("hooks") : null;
    }
    if (!(hooks instanceof ObjectNode object)) {
      throw new IllegalArgumentException("\"hooks\" is not an object");
    }
    return object;
  }

  private static ArrayNode groups(ObjectNode hooks, String event) {
    JsonNode groups = hooks.get(event);
    if (groups == null || groups.isNull()) {
      return hooks.putArray(event);
    }
    if (!(groups instanceof ArrayNode array)) {
      throw new IllegalArgumentException("\"hooks." + event + "\" is not an array");
    }
    return array;
  }

  private static boolean contains(ArrayNode groups, String command) {
    for (JsonNode group : groups) {
      for (JsonNode hook : group.path("hooks")) {
        if (hook.path("command").asText("").equals(command)) {
          return true;
        }
      }
    }
    return false;
  }

  static ObjectNode empty() {
    return JsonNodeFactory.instance.objectNode();
  }
}
