package dev.teammemory.daemon.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.files.TextFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The agent's {@code Edit} tool, with Claude Code's input shape: replace {@code old_string} by
 * {@code new_string} in {@code file_path}, once unless {@code replace_all}. It edits whatever file
 * it is given; which files that may be is the permission gate's decision, made before it runs. Its
 * messages name counts and paths, never the file's content.
 */
public final class FileEditTool implements AgentTool {

  /** Files the tool edits are memory files of a few kilobytes. */
  static final int MAX_BYTES = 4 * 1024 * 1024;

  public static final String NAME = "Edit";

  private static final ToolDefinition DEFINITION = describe();

  @Override
  public ToolDefinition definition() {
    return DEFINITION;
  }

  @Override
  public Result execute(JsonNode input) {
    JsonNode filePath = input.get("file_path");
    JsonNode oldString = input.get("old_string");
    JsonNode newString = input.get("new_string");
    if (filePath == null
        || !filePath.isTextual()
        || oldString == null
        || !oldString.isTextual()
        || newString == null
        || !newString.isTextual()) {
      return Result.error("file_path, old_string and new_string are required strings");
    }
    boolean replaceAll = input.path("replace_all").asBoolean(false);
    String target = oldString.asText();
    String replacement = newString.asText();
    if (target.equals(replacement)) {
      return Result.error("old_string and new_string are the same; nothing to change");
    }
    Path file = Path.of(filePath.asText());
    String before;
    try {
      Optional<String> exact = TextFiles.readExactly(file, MAX_BYTES);
      if (exact.isEmpty()) {
        return Result.error(
            file
                + " is not valid UTF-8 text or is over "
                + MAX_BYTES
                + " bytes; an edit could change what it holds, so it is left as it is");
      }
      before = exact.get();
    } catch (NoSuchFileException missing) {
      return Result.error("file does not exist: " + file);
    } catch (IOException unreadable) {
      return Result.error("cannot read " + file + ": " + FailureWords.describe(unreadable));
    }
    String after;
    if (target.isEmpty()) {
      if (!before.isEmpty()) {
        return Result.error("old_string is empty but the file is not; say what to replace");
      }
      after = replacement;
    } else {
      int matches = count(before, target);
      if (matches == 0) {
        return Result.error("old_string was not found in " + file);
      }
      if (matches > 1 && !replaceAll) {
        return Result.error(
            "old_string occurs "
                + matches
                + " times in "
                + file
                + "; add surrounding context to make it unique or set replace_all");
      }
      after =
          replaceAll
              ? before.replace(target, replacement)
              : replaceFirst(before, target, replacement);
    }
    try {
      write(file, after);
    } catch (IOException unwritable) {
      return Result.error("cannot write " + file + ": " + FailureWords.describe(unwritable));
    }
    return Result.ok("The file " + file + " has been updated.");
  }

  /**
   * Replaces the file atomically, so a crash or a full disk leaves the old text rather than a
   * truncated file. The real path is replaced, so an edit through a symlink changes the file it
   * points to and the link stays a link; the file keeps its mode, so session notes stay 0600.
   */
  private static void write(Path file, String text) throws IOException {
    AtomicFiles.write(file.toRealPath(), text.getBytes(StandardCharsets.UTF_8));
  }

  private static int count(String text, String target) {
    int matches = 0;
    for (int at = text.indexOf(target); at >= 0; at = text.indexOf(target, at + target.length())) {
      matches++;
    }
    return matches;
  }

  private static String replaceFirst(String text, String target, String replacement) {
    int at = text.indexOf(target);
    return text.substring(0, at) + replacement + text.substring(at + target.length());
  }

  private static ToolDefinition describe() {
    ObjectNode schema =
        InputSchema.object()
            .string("file_path", "The absolute path to the file to modify")
            .string("old_string", "The text to replace")
            .string("new_string", "The text to replace it with (must be different from old_string)")
            .bool("replace_all", "Replace all occurrences of old_string (default false)")
            .required("file_path", "old_string", "new_string")
            .closed();
    return new ToolDefinition(
        NAME,
        "Performs exact string replacements in files. old_string must be unique in the file"
            + " unless replace_all is set.",
        schema);
  }
}
