package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.agent.MemoryFolder;
import dev.teammemory.daemon.agent.TeammateNotes;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.ProjectRegistry;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP tools and resources tmem serves, whatever the transport: their names, descriptions and
 * JSON schemas, and each call turned into a tool result. The memory tools call {@link
 * MemoryFolder}; {@code recall}, {@code notes} and {@code compact} call {@link MemoryServices}.
 * Every failure is a result with {@code isError} and one sentence.
 *
 * <p>Over stdio the server belongs to the project it was started in; over HTTP one daemon serves
 * every project, so there each tool takes the project's directory ({@code project}).
 */
final class McpTools {

  /** Where a call's project comes from. */
  enum Binding {
    /** The directory {@code tmem mcp} was started in. */
    STARTED_IN,
    /** The call's {@code project} argument (absolute). */
    PER_CALL
  }

  static final String TEAM_INDEX_URI = "memory://team/MEMORY.md";
  static final String PRIVATE_INDEX_URI = "memory://private/MEMORY.md";

  static final String INSTRUCTIONS =
      "Team Memory: the project's shared (team) and personal (private) memory as markdown topic"
          + " files. Search before you work on something (memory_search), read what looks"
          + " relevant (memory_read), and save what the team should know next time"
          + " (memory_save, scope team) or what only this person wants kept (scope private)."
          + " Never save secrets: a save holding one is refused.";

  private static final int MAX_INDEX_BYTES = 64 * 1024;

  private final Environment environment;
  private final Clock clock;
  private final Binding binding;
  private final MemoryServices services;
  private final SecretGuard guard;

  McpTools(Environment environment, Clock clock, Binding binding) {
    this.environment = requireNonNull(environment, "environment is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.binding = requireNonNull(binding, "binding is null");
    this.services = new MemoryServices(environment, clock);
    this.guard = SecretGuard.withDefaultRules();
  }

  /** The tools, in the order a client lists them. */
  List<McpSchema.Tool> tools() {
    List<McpSchema.Tool> tools = new ArrayList<>();
    tools.add(
        tool(
            "memory_search",
            "Search the project's team and private memory for what is relevant to a task. Each hit"
                + " has the memory's path, scope (team or private), type, description, author and"
                + " time for team memories, and its body. Use it before starting work.",
            true,
            schema()
                .string(
                    "query", "What you are about to work on, in a few words or a sentence", true)
                .integer(
                    "limit",
                    "At most this many memories (1 to " + MemoryFolder.MAX_SEARCH_RESULTS + ")",
                    false)));
    tools.add(
        tool(
            "memory_read",
            "Read one memory file by its path inside the memory folder, as memory_list or"
                + " memory_search give it (team/… for the team's, MEMORY.md for the index).",
            true,
            schema().string("path", "The memory's path, such as team/testing-policy.md", true)));
    tools.add(
        tool(
            "memory_list",
            "List the project's memories, newest first: path, scope, type, name, description and"
                + " time. A prefix narrows it: team/ lists the team's.",
            true,
            schema().string("prefix", "Only paths starting with this, such as team/", false)));
    tools.add(
        tool(
            "memory_save",
            "Save a memory as a topic file with frontmatter and a line in the folder's MEMORY.md."
                + " Scope team shares it with everyone on the repository (it syncs like any edit);"
                + " private keeps it for this person. Saving under an existing name replaces that"
                + " memory (a copy of the old one is kept). A memory holding a secret is refused.",
            false,
            schema()
                .choice("scope", "Who it is for", List.of("team", "private"), true)
                .string(
                    "name",
                    "The file's name without .md: lower-case letters, digits, - and _ (such as"
                        + " testing-policy)",
                    true)
                .choice(
                    "type",
                    "user (about the person; private only), feedback (how to work), project (facts"
                        + " about the work) or reference (where things are)",
                    List.of("user", "feedback", "project", "reference"),
                    true)
                .string("description", "One line: what the memory is for", true)
                .string("body", "The memory itself, in markdown", true)));
    tools.add(
        tool(
            "memory_delete",
            "Delete a private memory (a copy is kept). Team memories are the team's: a person deletes"
                + " them. Without confirm: true it only says what would be deleted.",
            false,
            schema()
                .string("path", "The memory's path, such as old-preference.md", true)
                .bool("confirm", "true to delete; otherwise nothing is deleted", false)));
    ObjectNode recall =
        schema()
            .string("query", "What the agent is about to work on", true)
            .string("session", "Session id: memories shown before in it are skipped", false)
            .node();
    ((ObjectNode) recall.get("properties"))
        .putObject("tools")
        .put("type", "array")
        .put("description", "Tools the agent is using")
        .putObject("items")
        .put("type", "string");
    if (binding == Binding.STARTED_IN) {
      ((ObjectNode) recall.get("properties"))
          .putObject("cwd")
          .put("type", "string")
          .put("description", "The project directory (absolute)");
    }
    tools.add(
        tool(
            "recall",
            "The memories relevant to a query: at most 5 topic files not surfaced before in the"
                + " session, as tmem recall --format json prints them.",
            true,
            new Schema(recall)));
    Schema notes = schema().string("session", "The session id", true);
    if (binding == Binding.STARTED_IN) {
      notes.string("cwd", "The project directory (absolute)", false);
    }
    tools.add(
        tool("notes", "A session's notes (summary.md), kept from its transcript.", true, notes));
    tools.add(
        tool(
            "compact",
            "Compact a Claude Code transcript: boundary, summary and kept messages in the"
                + " transcript's JSON shapes.",
            true,
            schema()
                .string("transcript", "The session's JSONL transcript (absolute path)", true)
                .string("notes", "The session notes (absolute path; default: the session's)", false)
                .string("lastSummarized", "The last message uuid the notes cover", false)
                .integer("contextWindow", "The model's context window (default 200000)", false)
                .integer("maxOutput", "The model's maximum output (default 20000)", false)));
    return List.copyOf(tools);
  }

  /**
   * The two indexes an agent may read as resources. Over stdio they are the project's; over HTTP,
   * where one daemon serves every project, each registered checkout ({@code tmem add}) has its two,
   * named by a {@code ?project=} query.
   */
  List<McpSchema.Resource> resources() {
    if (binding == Binding.STARTED_IN) {
      return indexes("", "");
    }
    List<McpSchema.Resource> resources = new ArrayList<>();
    try {
      for (Project registered : new ProjectRegistry(StateHome.of(environment)).projects()) {
        if (registered.checkout().isPresent()) {
          String checkout = registered.checkout().get().toString();
          resources.addAll(
              indexes(
                  "?project=" + URLEncoder.encode(checkout, StandardCharsets.UTF_8),
                  " of " + registered.repo() + " (" + checkout + ")"));
        }
      }
    } catch (IOException | RuntimeException unreadable) {
      // No registry to read: no resources over HTTP; the tools take a project's directory.
    }
    return List.copyOf(resources);
  }

  private static List<McpSchema.Resource> indexes(String query, String whose) {
    return List.of(
        McpSchema.Resource.builder()
            .uri(TEAM_INDEX_URI + query)
            .name("team-memory-index")
            .title("Team MEMORY.md" + whose)
            .description(
                "The index of the team's memories, shared by everyone on the repository (fenced as"
                    + " teammates' notes)")
            .mimeType("text/markdown")
            .build(),
        McpSchema.Resource.builder()
            .uri(PRIVATE_INDEX_URI + query)
            .name("private-memory-index")
            .title("Private MEMORY.md" + whose)
            .description("The index of this person's own memories of the project")
            .mimeType("text/markdown")
            .build());
  }

  /**
   * A resource's text: the index as it is, empty when there is none yet; the team's inside the
   * fence every teammate's note reaches an agent in.
   */
  McpSchema.ReadResourceResult readResource(String uri) {
    int query = uri.indexOf('?');
    String index = query < 0 ? uri : uri.substring(0, query);
    Environment project = environment;
    if (query >= 0 && uri.startsWith("?project=", query)) {
      Path directory =
          Path.of(
              URLDecoder.decode(
                  uri.substring(query + "?project=".length()), StandardCharsets.UTF_8));
      if (directory.isAbsolute() && Files.isDirectory(directory)) {
        project = environment.withWorkingDirectory(directory.normalize());
      }
    }
    MemoryLocation location = MemoryLocation.resolve(project);
    boolean team = TEAM_INDEX_URI.equals(index);
    Path file =
        team ? location.teamDirectory().resolve(MemoryLocation.INDEX_FILE) : location.index();
    String text;
    try {
      text = TextFiles.readIfPresent(file, MAX_INDEX_BYTES).orElse("");
    } catch (IOException unreadable) {
      text = "";
    }
    if (team && !text.isEmpty()) {
      text = TeammateNotes.of(project, location).fence(file, text).text();
    }
    return new McpSchema.ReadResourceResult(
        List.of(new McpSchema.TextResourceContents(uri, "text/markdown", text)));
  }

  /** One call, answered; never throws for what a caller sent. */
  McpSchema.CallToolResult call(String name, Map<String, Object> arguments) {
    JsonNode args =
        MemoryServices.JSON.valueToTree(arguments == null ? Map.<String, Object>of() : arguments);
    try {
      Optional<Environment> project = project(args);
      if (project.isEmpty()) {
        return error(
            "project is required: the project's directory (absolute), since one daemon serves"
                + " every project");
      }
      MemoryFolder folder = new MemoryFolder(project.get(), clock, guard);
      return switch (name) {
        case "memory_search" -> {
          int limit = args.path("limit").asInt(MemoryFolder.MAX_SEARCH_RESULTS);
          yield answer(folder.search(MemoryServices.text(args, "query").orElse(""), limit));
        }
        case "memory_read" -> answer(folder.read(MemoryServices.text(args, "path").orElse(null)));
        case "memory_list" -> answer(folder.list(MemoryServices.text(args, "prefix")));
        case "memory_save" -> {
          MemoryFolder.Outcome<MemoryFolder.Saved> saved =
              folder.save(
                  new MemoryFolder.SaveRequest(
                      MemoryServices.text(args, "scope").orElse(null),
                      MemoryServices.text(args, "name").orElse(null),
                      MemoryServices.text(args, "type").orElse(null),
                      MemoryServices.text(args, "description").orElse(null),
                      MemoryServices.text(args, "body").orElse(null)));
          if (saved instanceof MemoryFolder.Outcome.Done<MemoryFolder.Saved> done
              && "team".equals(done.value().scope())) {
            // Asked only after a team save went through: the answer says whether it waits.
            yield success(
                saved(
                    done.value(),
                    RepositoryReview.of(
                        project.get(), MemoryLocation.resolve(project.get()).teamDirectory())));
          }
          yield answer(saved);
        }
        case "memory_delete" ->
            answer(
                folder.delete(
                    MemoryServices.text(args, "path").orElse(null),
                    args.path("confirm").asBoolean(false)));
        case "recall" -> success(services.recall(withCwd(args, project.get())));
        case "notes" -> {
          String session =
              MemoryServices.text(args, "session")
                  .orElseThrow(() -> new MemoryServices.BadRequest("\"session\" is required"));
          yield success(
              services
                  .notes(session, Optional.of(project.get().workingDirectory().toString()))
                  .orElseThrow(
                      () ->
                          new MemoryServices.BadRequest(
                              "session " + session + " has no notes yet")));
        }
        case "compact" -> success(services.compact(args));
        default ->
            error(
                "there is no tool "
                    + name
                    + "; the tools are "
                    + String.join(", ", tools().stream().map(McpSchema.Tool::name).toList()));
      };
    } catch (MemoryServices.BadRequest bad) {
      return error(bad.getMessage());
    } catch (IOException | RuntimeException failure) {
      return error(MemoryFolder.failed(name, failure));
    }
  }

  private Optional<Environment> project(JsonNode args) throws MemoryServices.BadRequest {
    Optional<String> given =
        MemoryServices.text(args, binding == Binding.PER_CALL ? "project" : "cwd");
    if (given.isEmpty()) {
      return binding == Binding.PER_CALL ? Optional.empty() : Optional.of(environment);
    }
    String field = binding == Binding.PER_CALL ? "project" : "cwd";
    Path directory;
    try {
      directory = Path.of(given.get());
    } catch (InvalidPathException notAPath) {
      throw new MemoryServices.BadRequest(field + " is not a path");
    }
    if (!directory.isAbsolute()) {
      throw new MemoryServices.BadRequest(field + " must be an absolute path: " + given.get());
    }
    if (!Files.isDirectory(directory)) {
      throw new MemoryServices.BadRequest(field + " is not a directory: " + given.get());
    }
    return Optional.of(environment.withWorkingDirectory(directory.normalize()));
  }

  private static JsonNode withCwd(JsonNode args, Environment project) {
    ObjectNode copy = ((ObjectNode) args).deepCopy();
    copy.remove("project");
    copy.put("cwd", project.workingDirectory().toString());
    return copy;
  }

  private static McpSchema.CallToolResult answer(MemoryFolder.Outcome<?> outcome) {
    return switch (outcome) {
      case MemoryFolder.Outcome.Done<?> done ->
          success(MemoryServices.JSON.valueToTree(shape(done.value())));
      case MemoryFolder.Outcome.Refused<?> refused -> error(refused.reason());
    };
  }

  /** The JSON an agent reads for each kind of answer. */
  private static Object shape(Object value) {
    if (value instanceof List<?> list) {
      ArrayNode array = MemoryServices.JSON.createArrayNode();
      list.forEach(item -> array.add(MemoryServices.JSON.valueToTree(shape(item))));
      return array;
    }
    return switch (value) {
      case MemoryFolder.Entry entry -> entry(entry);
      case MemoryFolder.Hit hit ->
          entry(hit.entry()).put("body", hit.body()).put("truncated", hit.truncated());
      case MemoryFolder.Read read ->
          MemoryServices.JSON
              .createObjectNode()
              .put("path", read.path())
              .put("content", read.content());
      case MemoryFolder.Saved saved -> saved(saved, RepositoryReview.State.UNKNOWN);
      case MemoryFolder.Deleted deleted ->
          MemoryServices.JSON
              .createObjectNode()
              .put("path", deleted.path())
              .put("deleted", true)
              .put("copyKeptAt", deleted.keptCopy().toString());
      case MemoryFolder.WouldDelete would ->
          MemoryServices.JSON
              .createObjectNode()
              .put("path", would.path())
              .put("deleted", false)
              .put("message", "call again with confirm: true to delete it");
      default -> MemoryServices.JSON.valueToTree(value);
    };
  }

  private static ObjectNode saved(MemoryFolder.Saved saved, RepositoryReview.State review) {
    ObjectNode node =
        MemoryServices.JSON
            .createObjectNode()
            .put("path", saved.path())
            .put("scope", saved.scope())
            .put("created", saved.created());
    saved.keptCopy().ifPresent(copy -> node.put("previousVersionKeptAt", copy.toString()));
    String message;
    if (!"team".equals(saved.scope())) {
      message = "saved for this person only";
    } else if (review == RepositoryReview.State.REQUIRED) {
      node.put("waitsForReview", true);
      message =
          "saved; tmem's daemon sends it to the server, where it waits for review: teammates get"
              + " it once a reviewer approves it";
    } else {
      message = "saved; tmem's daemon shares it with the team";
    }
    node.put("message", message);
    return node;
  }

  private static ObjectNode entry(MemoryFolder.Entry entry) {
    ObjectNode node = MemoryServices.JSON.createObjectNode().put("path", entry.path());
    node.put("scope", entry.scope());
    entry.type().ifPresent(type -> node.put("type", type));
    entry.name().ifPresent(name -> node.put("name", name));
    entry.description().ifPresent(description -> node.put("description", description));
    entry.author().ifPresent(author -> node.put("author", author));
    entry.written().ifPresent(written -> node.put("written", written.toString()));
    node.put("modified", entry.modified().toString());
    return node;
  }

  private static McpSchema.CallToolResult success(JsonNode json) {
    return McpSchema.CallToolResult.builder()
        .addTextContent(json.toString())
        .isError(false)
        .build();
  }

  private static McpSchema.CallToolResult error(String sentence) {
    return McpSchema.CallToolResult.builder().addTextContent(sentence).isError(true).build();
  }

  private McpSchema.Tool tool(String name, String description, boolean readOnly, Schema schema) {
    if (binding == Binding.PER_CALL) {
      schema.string(
          "project", "The project's directory (absolute): the checkout the agent works in", true);
    }
    return McpSchema.Tool.builder()
        .name(name)
        .description(description)
        .inputSchema(
            MemoryServices.JSON.convertValue(
                schema.node(), new TypeReference<Map<String, Object>>() {}))
        .annotations(
            new McpSchema.ToolAnnotations(
                null, readOnly, !readOnly && name.equals("memory_delete"), null, false, null))
        .build();
  }

  private static Schema schema() {
    ObjectNode node = MemoryServices.JSON.createObjectNode().put("type", "object");
    node.putObject("properties");
    node.putArray("required");
    return new Schema(node);
  }

  /** A tool's input schema as it is built up. */
  private record Schema(ObjectNode node) {

    Schema string(String name, String description, boolean required) {
      return property(name, "string", description, required);
    }

    Schema integer(String name, String description, boolean required) {
      return property(name, "integer", description, required);
    }

    Schema bool(String name, String description, boolean required) {
      return property(name, "boolean", description, required);
    }

    Schema choice(String name, String description, List<String> values, boolean required) {
      property(name, "string", description, required);
      ArrayNode allowed = ((ObjectNode) node.get("properties").get(name)).putArray("enum");
      values.forEach(allowed::add);
      return this;
    }

    private Schema property(String name, String type, String description, boolean required) {
      ((ObjectNode) node.get("properties"))
          .putObject(name)
          .put("type", type)
          .put("description", description);
      if (required) {
        ((ArrayNode) node.get("required")).add(name);
      }
      return this;
    }
  }
}
