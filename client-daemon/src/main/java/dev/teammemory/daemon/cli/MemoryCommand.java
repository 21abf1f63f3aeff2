package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.FormatOption;
import dev.teammemory.daemon.command.ProjectDirectoryOption;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryIndex;
import dev.teammemory.daemon.memory.MemoryLocation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tmem memory path|index}: where auto memory lives and what an agent is given of it. */
@Command(
    name = "memory",
    description = "Show where auto memory lives and the index an agent is given.",
    mixinStandardHelpOptions = true,
    subcommands = {MemoryCommand.PathCommand.class, MemoryCommand.IndexCommand.class})
public final class MemoryCommand {

  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** {@code tmem memory path}. */
  /** A memory command for a project: {@code --cwd} and {@code --format}. */
  abstract static class InProject extends EngineCommand {

    @Mixin ProjectDirectoryOption cwd;
    @Mixin FormatOption format;

    InProject(Environment environment) {
      super(environment, Clock.systemUTC());
    }

    @Override
    public final Integer call() throws IOException {
      return print(MemoryLocation.resolve(cwd.inProject(environment)), out(), err());
    }

    /** Prints what the command shows of the project's memory. */
    abstract Integer print(MemoryLocation location, PrintWriter out, PrintWriter err)
        throws IOException;
  }

  @Command(
      name = "path",
      description = {
        "Print the auto-memory directory, resolved as Claude Code resolves it:",
        "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, else autoMemoryDirectory from your user or local"
            + " settings, else <config home>/projects/<git root>/memory."
      },
      mixinStandardHelpOptions = true)
  public static final class PathCommand extends InProject {

    public PathCommand() {
      this(Environment.system());
    }

    public PathCommand(Environment environment) {
      super(environment);
    }

    @Override
    Integer print(MemoryLocation location, PrintWriter out, PrintWriter err) throws IOException {
      switch (format.value()) {
        case json -> {
          ObjectNode json = JSON.createObjectNode();
          json.put("directory", location.directory().toString());
          json.put("index", location.index().toString());
          json.put("teamDirectory", location.teamDirectory().toString());
          json.put("source", location.source());
          json.put("enabled", location.enabled());
          json.put("disabledBy", location.disabledBy().orElse(null));
          ArrayNode warnings = json.putArray("warnings");
          location.warnings().forEach(warnings::add);
          out.println(JSON.writeValueAsString(json));
        }
        case text -> {
          out.println(location.directory());
          warn(err, location);
        }
      }
      return 0;
    }
  }

  /** {@code tmem memory index}. */
  @Command(
      name = "index",
      description = {
        "Print the MEMORY.md index as an agent is given it: at most 200 lines and 25,000"
            + " characters, cut at a line boundary, with a warning when a limit was hit.",
        "The team index (team/MEMORY.md) follows when team memory is in use."
      },
      mixinStandardHelpOptions = true)
  public static final class IndexCommand extends InProject {

    public IndexCommand() {
      this(Environment.system());
    }

    public IndexCommand(Environment environment) {
      super(environment);
    }

    @Override
    Integer print(MemoryLocation location, PrintWriter out, PrintWriter err) throws IOException {
      Optional<MemoryIndex> personal =
          location.enabled() ? load(location.index()) : Optional.empty();
      Optional<MemoryIndex> team =
          location.enabled() && location.teamActive()
              ? load(location.teamDirectory().resolve(MemoryLocation.INDEX_FILE))
              : Optional.empty();
      switch (format.value()) {
        case json -> {
          ObjectNode json = JSON.createObjectNode();
          json.put("directory", location.directory().toString());
          json.put("enabled", location.enabled());
          json.put("disabledBy", location.disabledBy().orElse(null));
          ArrayNode indexes = json.putArray("indexes");
          if (location.enabled()) {
            indexes.add(indexJson(location.index(), "private", personal));
            if (location.teamActive()) {
              indexes.add(
                  indexJson(
                      location.teamDirectory().resolve(MemoryLocation.INDEX_FILE), "team", team));
            }
          }
          out.println(JSON.writeValueAsString(json));
        }
        case text -> {
          if (!location.enabled()) {
            warn(err, location);
            return 0;
          }
          out.println(
              "Contents of "
                  + location.index()
                  + " (user's auto-memory, persists across conversations):");
          out.println();
          out.println(
              personal
                  .map(MemoryIndex::content)
                  .orElse(
                      "Your MEMORY.md is currently empty. When you save new memories, they will"
                          + " appear here."));
          if (team.isPresent()) {
            out.println();
            out.println(
                "Contents of "
                    + team.get().file()
                    + " (team memory, shared with everyone working on this repository):");
            out.println();
            out.println(team.get().content());
          }
          warn(err, location);
        }
      }
      return 0;
    }

    private static ObjectNode indexJson(Path file, String scope, Optional<MemoryIndex> index) {
      ObjectNode json = JSON.createObjectNode();
      json.put("path", file.toString());
      json.put("scope", scope);
      json.put("present", index.isPresent());
      json.put("content", index.map(MemoryIndex::content).orElse(""));
      json.put("lineCount", index.map(MemoryIndex::lineCount).orElse(0));
      json.put("characterCount", index.map(MemoryIndex::characterCount).orElse(0));
      json.put("truncatedByLines", index.map(MemoryIndex::truncatedByLines).orElse(false));
      json.put(
          "truncatedByCharacters", index.map(MemoryIndex::truncatedByCharacters).orElse(false));
      return json;
    }

    private static Optional<MemoryIndex> load(Path file) {
      try {
        return MemoryIndex.load(file);
      } catch (IOException unreadable) {
        throw UserError.problem(
            "cannot read the index: "
                + FailureWords.describe(unreadable)
                + "; MEMORY.md must be a readable file");
      }
    }
  }

  private static void warn(PrintWriter err, MemoryLocation location) {
    location
        .disabledBy()
        .ifPresent(reason -> err.println("tmem: auto memory is off (" + reason + ")"));
    location.warnings().forEach(warning -> err.println("tmem: " + warning));
  }
}
