package dev.teammemory.daemon.memory;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.TextFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one line a topic file has in its folder's {@code MEMORY.md}: {@code - [name](file.md) —
 * description}. Extraction and an agent's own saves write it here, so both index alike.
 */
public final class TopicIndex {

  /** Index lines are kept short: the index is always in the agent's context. */
  public static final int MAX_LINE = 150;

  private static final int MAX_INDEX_BYTES = 4 * 1024 * 1024;

  private TopicIndex() {}

  /** Adds or replaces the one index line that points at {@code file}. */
  public static void put(Path directory, Path file, String name, String description)
      throws IOException {
    String relative = relative(directory, file);
    String line = oneLine("- [" + name + "](" + relative + ") — " + description, MAX_LINE);
    Optional<List<String>> read = lines(directory);
    if (read.isEmpty()) {
      return;
    }
    List<String> lines = read.get();
    boolean replaced = false;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("](" + relative + ")")) {
        lines.set(i, line);
        replaced = true;
        break;
      }
    }
    if (!replaced) {
      lines.add(line);
    }
    write(directory, lines);
  }

  /** Removes the index lines that point at {@code file}; the rest stays as it was. */
  public static void remove(Path directory, Path file) throws IOException {
    String relative = relative(directory, file);
    Optional<List<String>> read = lines(directory);
    if (read.isEmpty()) {
      return;
    }
    List<String> lines = read.get();
    if (lines.removeIf(line -> line.contains("](" + relative + ")"))) {
      write(directory, lines);
    }
  }

  /** Whitespace runs made one space, cut with an ellipsis at {@code max} characters. */
  public static String oneLine(String text, int max) {
    String line = text.replaceAll("\\s+", " ").strip();
    return line.length() <= max ? line : line.substring(0, max - 1).strip() + "…";
  }

  /**
   * A YAML double-quoted scalar, so that a {@code :} in a description never breaks the frontmatter.
   */
  public static String quoted(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String relative(Path directory, Path file) {
    return directory.relativize(file).toString().replace('\\', '/');
  }

  /** The index's lines, empty list when there is none, empty when it must not be rewritten. */
  private static Optional<List<String>> lines(Path directory) throws IOException {
    Path index = directory.resolve(MemoryLocation.INDEX_FILE);
    List<String> lines = new ArrayList<>();
    try {
      Optional<String> exact = TextFiles.readExactly(index, MAX_INDEX_BYTES);
      if (exact.isEmpty()) {
        // Not valid UTF-8 (or huge): rewriting it could change what it holds. The memory is saved;
        // the next consolidation, or the agent, indexes it.
        return Optional.empty();
      }
      lines.addAll(exact.get().lines().toList());
    } catch (NoSuchFileException absent) {
      // The first memory starts the index.
    }
    return Optional.of(lines);
  }

  private static void write(Path directory, List<String> lines) throws IOException {
    AtomicFiles.write(
        directory.resolve(MemoryLocation.INDEX_FILE),
        (lines.isEmpty() ? "" : String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
