package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.model.AgentTool;
import dev.teammemory.daemon.model.InputSchema;
import dev.teammemory.daemon.model.ToolDefinition;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The agent's {@code Glob} tool: the files under a folder whose relative path matches a glob
 * pattern ({@code **}{@code /*.md}), most recently changed first, at most {@value #MAX_FILES}. It
 * only lists, so the permission gate lets it run anywhere: the walk stops once it has found more
 * than {@value #MAX_FILES} files or spent its time budget, and the answer says it was cut. Hidden
 * folders ({@code .git}) are not entered.
 */
final class GlobTool implements AgentTool {

  static final int MAX_FILES = 100;

  private final Path workingDirectory;
  private final Duration timeBudget;

  GlobTool(Path workingDirectory) {
    this(workingDirectory, VisibleFiles.TIME_BUDGET);
  }

  GlobTool(Path workingDirectory, Duration timeBudget) {
    this.workingDirectory = requireNonNull(workingDirectory, "workingDirectory is null");
    this.timeBudget = requireNonNull(timeBudget, "timeBudget is null");
  }

  @Override
  public ToolDefinition definition() {
    var schema =
        InputSchema.object()
            .string("pattern", "The glob to match relative paths against, such as **/*.md")
            .string("path", "The folder to search (default: the project directory)")
            .required("pattern")
            .build();
    return new ToolDefinition(
        MemoryWriteGate.GLOB,
        "Lists the files whose path matches a glob pattern, most recently changed first.",
        schema);
  }

  @Override
  public Result execute(JsonNode input) {
    String pattern = input.path("pattern").asText("");
    if (pattern.isBlank()) {
      return Result.error("Glob needs a pattern");
    }
    Path root;
    PathMatcher matcher;
    try {
      root = workingDirectory.resolve(input.path("path").asText(".")).normalize();
      matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    } catch (IllegalArgumentException invalid) {
      // A malformed path, glob or regular expression (all IllegalArgumentExceptions).

      return Result.error("not a usable pattern or path: " + invalid.getMessage());
    }
    if (!Files.isDirectory(root)) {
      return Result.error("not a folder: " + root);
    }
    // One past the cap, to know there is more; the walk stops there rather than gathering the disk.
    List<Map.Entry<Path, FileTime>> found = new ArrayList<>();
    VisibleFiles.Walk walk;
    try {
      walk =
          VisibleFiles.walk(
              root,
              timeBudget,
              (file, attrs) -> {
                if (matcher.matches(root.relativize(file)) || matcher.matches(file.getFileName())) {
                  found.add(Map.entry(file, attrs.lastModifiedTime()));
                }
                return found.size() <= MAX_FILES;
              });
    } catch (IOException unreadable) {
      return Result.error("cannot list " + root + ": " + FailureWords.describe(unreadable));
    }
    String outOfTime =
        walk == VisibleFiles.Walk.OUT_OF_TIME ? "\n" + VisibleFiles.outOfTimeNote(timeBudget) : "";
    if (found.isEmpty()) {
      return Result.ok("No files found" + outOfTime);
    }
    found.sort(Map.Entry.<Path, FileTime>comparingByValue(Comparator.reverseOrder()));
    String listing =
        found.stream()
            .limit(MAX_FILES)
            .map(entry -> entry.getKey().toString())
            .collect(Collectors.joining("\n"));
    String cut =
        found.size() > MAX_FILES
            ? "\n(listing cut at "
                + MAX_FILES
                + " files, newest first among those found; narrow the path or pattern)"
            : "";
    return Result.ok(listing + cut + outOfTime);
  }
}
