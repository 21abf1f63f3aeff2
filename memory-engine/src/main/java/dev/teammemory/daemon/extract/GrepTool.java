package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.model.AgentTool;
import dev.teammemory.daemon.model.InputSchema;
import dev.teammemory.daemon.model.ToolDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The agent's {@code Grep} tool: a regular expression searched through the text files under a
 * folder (or in one file), optionally only those whose name matches a glob. By default it lists the
 * files that match; {@code output_mode: content} shows the matching lines with their numbers. It
 * only reads, so the permission gate lets it run anywhere. Hidden folders and files over {@value
 * #MAX_FILE_BYTES} bytes are skipped, and the answer is cut at {@value #MAX_RESULTS} results or
 * when the walk has spent its time budget, saying so.
 */
final class GrepTool implements AgentTool {

  static final int MAX_RESULTS = 250;
  private static final long MAX_FILE_BYTES = 2_000_000;
  private static final int MAX_LINE = 500;

  private final Path workingDirectory;
  private final Duration timeBudget;

  GrepTool(Path workingDirectory) {
    this(workingDirectory, VisibleFiles.TIME_BUDGET);
  }

  GrepTool(Path workingDirectory, Duration timeBudget) {
    this.workingDirectory = requireNonNull(workingDirectory, "workingDirectory is null");
    this.timeBudget = requireNonNull(timeBudget, "timeBudget is null");
  }

  @Override
  public ToolDefinition definition() {
    var schema =
        InputSchema.object()
            .string("pattern", "The regular expression to search for")
            .string("path", "The file or folder to search (default: the project directory)")
            .string("glob", "Only files whose name matches this glob, such as *.md")
            .oneOf(
                "output_mode",
                "files_with_matches (default) or content (the matching lines)",
                "files_with_matches",
                "content")
            .bool("-i", "Ignore case")
            .required("pattern")
            .build();
    return new ToolDefinition(
        MemoryWriteGate.GREP,
        "Searches file contents for a regular expression; lists matching files or lines.",
        schema);
  }

  @Override
  public Result execute(JsonNode input) {
    Pattern pattern;
    Path root;
    Optional<PathMatcher> names;
    try {
      pattern =
          Pattern.compile(
              input.path("pattern").asText(""),
              input.path("-i").asBoolean(false) ? Pattern.CASE_INSENSITIVE : 0);
      root = workingDirectory.resolve(input.path("path").asText(".")).normalize();
      names =
          input.path("glob").isTextual()
              ? Optional.of(
                  FileSystems.getDefault().getPathMatcher("glob:" + input.path("glob").asText()))
              : Optional.empty();
    } catch (IllegalArgumentException invalid) {
      // A malformed path, glob or regular expression (all IllegalArgumentExceptions).

      return Result.error("not a usable pattern or path: " + invalid.getMessage());
    }
    if (input.path("pattern").asText("").isEmpty()) {
      return Result.error("Grep needs a pattern");
    }
    boolean content = input.path("output_mode").asText("").equals("content");
    // One past the cap, to know there is more.
    List<String> results = new ArrayList<>();
    VisibleFiles.Walk walk;
    try {
      walk =
          VisibleFiles.walk(
              root,
              timeBudget,
              (file, attrs) -> {
                if (attrs.size() <= MAX_FILE_BYTES
                    && names.map(glob -> glob.matches(file.getFileName())).orElse(true)) {
                  search(file, pattern, content, results);
                }
                return results.size() <= MAX_RESULTS;
              });
    } catch (IOException | UncheckedIOException unreadable) {
      return Result.error("cannot search " + root + ": " + FailureWords.describe(unreadable));
    }
    String outOfTime =
        walk == VisibleFiles.Walk.OUT_OF_TIME ? "\n" + VisibleFiles.outOfTimeNote(timeBudget) : "";
    if (results.isEmpty()) {
      return Result.ok("No matches found" + outOfTime);
    }
    String answer = String.join("\n", results.subList(0, Math.min(results.size(), MAX_RESULTS)));
    String cut =
        results.size() > MAX_RESULTS
            ? "\n(results cut at " + MAX_RESULTS + "; narrow the search)"
            : "";
    return Result.ok(answer + cut + outOfTime);
  }

  private static void search(Path file, Pattern pattern, boolean content, List<String> results) {
    List<String> lines;
    try {
      // Lenient, as ripgrep: a stray byte that is not UTF-8 does not hide a file from the search;
      // a NUL marks a binary file, which is skipped. Bounded, in case the file grew since the walk.
      String text = TextFiles.read(file, (int) MAX_FILE_BYTES);
      if (text.indexOf('\0') >= 0) {
        return;
      }
      lines = text.lines().toList();
    } catch (IOException unreadableOrGrown) {
      return;
    }
    for (int i = 0; i < lines.size() && results.size() <= MAX_RESULTS; i++) {
      if (!pattern.matcher(lines.get(i)).find()) {
        continue;
      }
      if (!content) {
        results.add(file.toString());
        return;
      }
      String line = lines.get(i);
      results.add(
          file
              + ":"
              + (i + 1)
              + ":"
              + (line.length() > MAX_LINE ? line.substring(0, MAX_LINE) : line));
    }
  }
}
