package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.compact.Compaction;
import dev.teammemory.daemon.compact.CompactionLimits;
import dev.teammemory.daemon.compact.CompactionRequest;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.recall.RecallReport;
import dev.teammemory.daemon.recall.SessionRecall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Recall, session notes and compaction for other agents, behind the local API and the MCP server.
 * Requests are JSON objects and answers are the JSON the matching {@code tmem … --format json}
 * prints, so every front end gives the same shapes. Paths in requests must be absolute: the
 * server's own working directory means nothing to a caller.
 */
final class MemoryServices {

  static final ObjectMapper JSON = new ObjectMapper();

  /** A session's notes as the API and MCP answer them. */
  record SessionNotesAnswer(String session, String notes, String content) {}

  /** A request the caller got wrong; the message says which field and why. */
  static final class BadRequest extends Exception {
    BadRequest(String message) {
      super(message, null, false, false);
    }
  }

  private final Environment environment;
  private final Clock clock;

  MemoryServices(Environment environment, Clock clock) {
    this.environment = requireNonNull(environment, "environment is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  Environment environment() {
    return environment;
  }

  Clock clock() {
    return clock;
  }

  /**
   * {@code {"query", "session"?, "cwd"?, "tools"?}} → what {@code tmem recall --format json}
   * prints.
   */
  ObjectNode recall(JsonNode request) throws BadRequest, IOException {
    String query =
        text(request, "query")
            .filter(value -> !value.isBlank())
            .orElseThrow(() -> new BadRequest("\"query\" is required"));
    Environment project = inProject(request);
    Optional<String> session = text(request, "session");
    if (session.isPresent()) {
      checkSession(session.get());
    }
    List<String> tools = new ArrayList<>();
    request.path("tools").forEach(tool -> tools.add(tool.asText()));
    LanguageModel model;
    try {
      model = LanguageModel.fromEnvironment(environment.variables());
    } catch (IllegalArgumentException misconfigured) {
      throw new BadRequest(
          "recall failed: " + misconfigured.getMessage() + "; fix the variable or unset it");
    }
    RecallReport report =
        new SessionRecall(ClaudeLayout.of(project), model, clock)
            .recall(project, query, session, tools);
    return JSON.valueToTree(report);
  }

  /** The notes of a session of a project, or empty when there are none yet. */
  Optional<ObjectNode> notes(String session, Optional<String> cwd) throws BadRequest, IOException {
    checkSession(session);
    Path project = cwd.isPresent() ? absolute("cwd", cwd.get()) : environment.workingDirectory();
    Path file = ClaudeLayout.of(environment).sessionNotes(project, session);
    Optional<String> read = SessionNotes.read(file);
    if (read.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        JSON.valueToTree(new SessionNotesAnswer(session, file.toString(), read.get())));
  }

  /**
   * {@code {"transcript", "notes"?, "lastSummarized"?, "contextWindow"?, "maxOutput"?, "auto"?}} →
   * what {@code tmem compact --format json} prints.
   */
  ObjectNode compact(JsonNode request) throws BadRequest, IOException {
    Path transcript =
        absolute(
            "transcript",
            text(request, "transcript")
                .orElseThrow(() -> new BadRequest("\"transcript\" is required")));
    if (!Files.isRegularFile(transcript)) {
      throw new BadRequest("\"transcript\" is not a file: " + transcript);
    }
    Optional<Path> notes =
        text(request, "notes").isPresent()
            ? Optional.of(absolute("notes", text(request, "notes").get()))
            : Optional.empty();
    CompactionLimits limits;
    try {
      limits =
          new CompactionLimits(
              request.path("contextWindow").asLong(CompactionLimits.DEFAULT_CONTEXT_WINDOW),
              request.path("maxOutput").asLong(CompactionLimits.DEFAULT_MAX_OUTPUT));
    } catch (IllegalArgumentException invalid) {
      throw new BadRequest("\"contextWindow\"/\"maxOutput\": " + invalid.getMessage());
    }
    LanguageModel model;
    try {
      model = LanguageModel.fromEnvironment(environment.variables());
    } catch (IllegalArgumentException misconfigured) {
      throw new IllegalStateException(
          "the model settings are malformed: " + misconfigured.getMessage());
    }
    CompactionRequest compaction =
        new CompactionRequest(
            transcript,
            notes,
            text(request, "lastSummarized"),
            limits,
            request.path("auto").asBoolean(false));
    return JSON.valueToTree(
        new Compaction(ClaudeLayout.of(environment), model, clock).compact(compaction));
  }

  private Environment inProject(JsonNode request) throws BadRequest {
    Optional<String> cwd = text(request, "cwd");
    if (cwd.isEmpty()) {
      return environment;
    }
    Path directory = absolute("cwd", cwd.get());
    if (!Files.isDirectory(directory)) {
      throw new BadRequest("\"cwd\" is not a directory: " + directory);
    }
    return environment.withWorkingDirectory(directory);
  }

  private static void checkSession(String session) throws BadRequest {
    try {
      ClaudeLayout.checkSessionId(session);
    } catch (IllegalArgumentException invalid) {
      throw new BadRequest("\"session\": " + invalid.getMessage());
    }
  }

  private static Path absolute(String field, String value) throws BadRequest {
    try {
      Path path = Path.of(value);
      if (!path.isAbsolute()) {
        throw new BadRequest("\"" + field + "\" must be an absolute path: " + value);
      }
      return path.normalize();
    } catch (InvalidPathException notAPath) {
      throw new BadRequest("\"" + field + "\" is not a path");
    }
  }

  static Optional<String> text(JsonNode request, String field) {
    JsonNode value = request.get(field);
    return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }
}
