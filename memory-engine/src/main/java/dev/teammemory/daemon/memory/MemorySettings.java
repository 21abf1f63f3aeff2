package dev.teammemory.daemon.memory;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.files.TextFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The memory settings of Claude Code's {@code settings.json} files. {@code autoMemoryDirectory} is
 * read only from the user's own files ({@code <config home>/settings.json} and the project's
 * uncommitted {@code .claude/settings.local.json}): a repository's committed {@code
 * .claude/settings.json} could otherwise point memory writes at {@code ~/.ssh}. Switches that only
 * turn things off may come from the committed file too, with the local file winning, then the
 * project's, then the user's.
 *
 * @param autoMemoryDirectory the setting's value and the file it came from
 * @param warnings files that exist but could not be read, for the user to fix
 */
public record MemorySettings(
    Optional<Sourced<String>> autoMemoryDirectory,
    Optional<Sourced<Boolean>> autoMemoryEnabled,
    Optional<Sourced<Boolean>> autoDreamEnabled,
    Optional<Sourced<Boolean>> dailyLogMode,
    List<String> warnings) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A settings file is a few kilobytes; a larger one (or a FIFO) is not read whole. */
  private static final int MAX_BYTES = 1024 * 1024;

  /** A setting's value and the file that set it. */
  public record Sourced<T>(T value, Path file) {
    public Sourced {
      requireNonNull(value, "value is null");
      requireNonNull(file, "file is null");
    }
  }

  public MemorySettings {
    requireNonNull(autoMemoryDirectory, "autoMemoryDirectory is null");
    requireNonNull(autoMemoryEnabled, "autoMemoryEnabled is null");
    requireNonNull(autoDreamEnabled, "autoDreamEnabled is null");
    requireNonNull(dailyLogMode, "dailyLogMode is null");
    warnings = List.copyOf(warnings);
  }

  /** Reads the user's settings and the project's settings in {@code projectRoot/.claude}. */
  public static MemorySettings load(ClaudeLayout layout, Path projectRoot) {
    List<String> warnings = new ArrayList<>();
    Path userFile = layout.userSettings();
    Path localFile = projectRoot.resolve(".claude").resolve("settings.local.json");
    Path projectFile = projectRoot.resolve(".claude").resolve("settings.json");
    Optional<JsonNode> user = read(userFile, warnings);
    Optional<JsonNode> local = read(localFile, warnings);
    Optional<JsonNode> project = read(projectFile, warnings);
    // Most specific first.
    List<Source> trusted = List.of(new Source(local, localFile), new Source(user, userFile));
    List<Source> all =
        List.of(
            new Source(local, localFile),
            new Source(project, projectFile),
            new Source(user, userFile));
    return new MemorySettings(
        first(trusted, "autoMemoryDirectory", JsonNode::isTextual, JsonNode::asText),
        first(all, "autoMemoryEnabled", JsonNode::isBoolean, JsonNode::asBoolean),
        first(all, "autoDreamEnabled", JsonNode::isBoolean, JsonNode::asBoolean),
        first(all, "dailyLogMode", JsonNode::isBoolean, JsonNode::asBoolean),
        warnings);
  }

  private record Source(Optional<JsonNode> settings, Path file) {}

  private static <T> Optional<Sourced<T>> first(
      List<Source> sources, String key, Predicate<JsonNode> accepts, Function<JsonNode, T> value) {
    for (Source source : sources) {
      Optional<JsonNode> node = source.settings().map(settings -> settings.get(key));
      if (node.isPresent() && node.get() != null && accepts.test(node.get())) {
        return Optional.of(new Sourced<>(value.apply(node.get()), source.file()));
      }
    }
    return Optional.empty();
  }

  private static Optional<JsonNode> read(Path file, List<String> warnings) {
    try {
      // Decoded leniently, as Claude Code (Node) reads it: a stray byte in some other setting
      // must not make tmem ignore autoMemoryEnabled: false.
      JsonNode settings = JSON.readTree(TextFiles.read(file, MAX_BYTES));
      if (settings != null && settings.isObject()) {
        return Optional.of(settings);
      }
      warnings.add("ignored " + file + ": it is not a JSON object");
    } catch (NoSuchFileException absent) {
      // No settings file is the common case.
    } catch (IOException unreadable) {
      warnings.add("ignored " + file + ": " + FailureWords.describe(unreadable));
    }
    return Optional.empty();
  }
}
