package dev.teammemory.daemon.agent;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What an agent tells memory at one of its events: the session, its transcript, the working
 * directory and the event, plus the event's own fields ({@code prompt} for UserPromptSubmit, {@code
 * trigger} and {@code custom_instructions} for PreCompact, {@code source} for SessionStart, {@code
 * stop_hook_active} for Stop). {@link #parse} reads Claude Code's hook JSON; Codex sends the same
 * field names, but its {@code transcript_path} is a log of its own, so an adapter for it leaves
 * {@code transcriptPath} empty: the services read it as a Claude Code JSONL transcript.
 *
 * @param transcriptPath the session's Claude Code JSONL transcript, absolute
 * @param cwd the agent's working directory, absolute
 */
public record HookInput(
    Optional<String> sessionId,
    Optional<Path> transcriptPath,
    Optional<Path> cwd,
    String hookEventName,
    Optional<String> prompt,
    Optional<String> trigger,
    Optional<String> customInstructions,
    Optional<String> source,
    boolean stopHookActive) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The input as Codex's hooks mean it: Codex sends Claude Code's field names, but its {@code
   * transcript_path} is its own session log, which the services must not read as a Claude Code
   * transcript.
   */
  public HookInput fromCodex() {
    return new HookInput(
        sessionId,
        Optional.empty(),
        cwd,
        hookEventName,
        prompt,
        trigger,
        customInstructions,
        source,
        stopHookActive);
  }

  public HookInput {
    requireNonNull(sessionId, "sessionId is null");
    requireNonNull(transcriptPath, "transcriptPath is null");
    requireNonNull(cwd, "cwd is null");
    requireNonNull(hookEventName, "hookEventName is null");
    requireNonNull(prompt, "prompt is null");
    requireNonNull(trigger, "trigger is null");
    requireNonNull(customInstructions, "customInstructions is null");
    requireNonNull(source, "source is null");
  }

  /** The input read from an agent's JSON, or why it could not be. */
  public sealed interface Parsed {

    /** The input, its fields as lenient as the agent needs: a field of the wrong type is absent. */
    record Read(HookInput input) implements Parsed {
      public Read {
        requireNonNull(input, "input is null");
      }
    }

    /** Not hook input at all. */
    enum Unreadable implements Parsed {
      NOT_JSON,
      NOT_AN_OBJECT;

      /** What it is instead, in words: "the hook input is …". */
      public String reason() {
        return this == NOT_JSON ? "not JSON" : "not a JSON object";
      }
    }
  }

  /** Reads a hook's JSON as Claude Code (and Codex) send it. */
  public static Parsed parse(byte[] bytes) {
    requireNonNull(bytes, "bytes is null");
    JsonNode root;
    try {
      root = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
    } catch (IOException notJson) {
      return Parsed.Unreadable.NOT_JSON;
    }
    if (root == null || !root.isObject()) {
      return Parsed.Unreadable.NOT_AN_OBJECT;
    }
    return new Parsed.Read(
        new HookInput(
            text(root, "session_id"),
            text(root, "transcript_path").flatMap(HookInput::absolutePath),
            text(root, "cwd").flatMap(HookInput::absolutePath),
            text(root, "hook_event_name").orElse(""),
            text(root, "prompt"),
            text(root, "trigger"),
            text(root, "custom_instructions"),
            text(root, "source"),
            root.path("stop_hook_active").asBoolean(false)));
  }

  private static Optional<String> text(JsonNode root, String field) {
    JsonNode value = root.get(field);
    return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  private static Optional<Path> absolutePath(String text) {
    try {
      Path path = Path.of(text);
      return path.isAbsolute() ? Optional.of(path.normalize()) : Optional.empty();
    } catch (InvalidPathException notAPath) {
      return Optional.empty();
    }
  }
}
