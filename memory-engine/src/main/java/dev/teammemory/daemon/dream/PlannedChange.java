package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One change consolidation makes to a memory file.
 *
 * @param content the file's new content for a rewrite; empty for a deletion
 */
record PlannedChange(Path file, Action action, String reason, Optional<String> content) {

  enum Action {
    REWRITE,
    DELETE
  }

  PlannedChange {
    requireNonNull(file, "file is null");
    requireNonNull(action, "action is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(content, "content is null");
    if ((action == Action.REWRITE) != content.isPresent()) {
      throw new IllegalArgumentException(
          "a rewrite needs content and a deletion has none: " + action);
    }
  }

  static PlannedChange rewrite(Path file, String reason, String content) {
    return new PlannedChange(file, Action.REWRITE, reason, Optional.of(content));
  }

  static PlannedChange delete(Path file, String reason) {
    return new PlannedChange(file, Action.DELETE, reason, Optional.empty());
  }

  /** One line for a person: {@code delete feedback_x.md (exact duplicate of feedback_y.md)}. */
  String describe(Path memoryDirectory) {
    String name =
        file.startsWith(memoryDirectory)
            ? memoryDirectory.relativize(file).toString()
            : file.toString();
    return (action == Action.DELETE ? "delete " : "rewrite ") + name + " (" + reason + ")";
  }
}
