package dev.teammemory.daemon.hook;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.command.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What Claude Code sends a hook on stdin: the session, its transcript, the working directory and
 * the event, plus the event's own fields ({@code prompt} for UserPromptSubmit, {@code trigger} and
 * {@code custom_instructions} for PreCompact, {@code source} for SessionStart, {@code
 * stop_hook_active} for Stop).
 */
record HookInput(
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

  /** Hook input is small; anything bigger is not what the agent sends. */
  private static final int MAX_BYTES = 4 * 1024 * 1024;

  HookInput {
    requireNonNull(sessionId, "sessionId is null");
    requireNonNull(transcriptPath, "transcriptPath is null");
    requireNonNull(cwd, "cwd is null");
    requireNonNull(hookEventName, "hookEventName is null");
    requireNonNull(prompt, "prompt is null");
    requireNonNull(trigger, "trigger is null");
    requireNonNull(customInstructions, "customInstructions is null");
    requireNonNull(source, "source is null");
  }

  /**
   * Reads the input. Problems are exit code 1, never 2: to Claude Code exit code 2 means "block",
   * and a broken memory hook must never block the user's prompt or the agent's stop.
   */
  static HookInput read(InputStream in) {
    return parse(readBytes(in));
  }

  /** The input as it came, for a process the hook hands its work to. */
  static byte[] readBytes(InputStream in) {
    byte[] bytes;
    try {
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (IOException unreadable) {
      throw UserError.problem(
          "the hook input on stdin could not be read; run this command from a Claude Code hook");
    }
    if (bytes.length > MAX_BYTES) {
      throw UserError.problem(
          "the hook input on stdin is larger than 4 MiB; this is not what Claude Code sends");
    }
    return bytes;
  }

  static HookInput parse(byte[] bytes) {
    JsonNode root;
    try {
      root = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
    } catch (IOException notJson) {
      throw UserError.problem(
          "the hook input on stdin is not JSON; run this command from a Claude Code hook");
    }
    if (root == null || !root.isObject()) {
      throw UserError.problem(
          "the hook input on stdin is not a JSON object; run this command from a Claude Code hook");
    }
    return new HookInput(
        text(root, "session_id"),
        text(root, "transcript_path").flatMap(HookInput::absolutePath),
        text(root, "cwd").flatMap(HookInput::absolutePath),
        text(root, "hook_event_name").orElse(""),
        text(root, "prompt"),
        text(root, "trigger"),
        text(root, "custom_instructions"),
        text(root, "source"),
        root.path("stop_hook_active").asBoolean(false));
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
