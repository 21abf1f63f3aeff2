package dev.teammemory.daemon.agent;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;
import dev.teammemory.daemon.memory.TopicIndex;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.recall.RecallReport;
import dev.teammemory.daemon.recall.RecalledMemory;
import dev.teammemory.daemon.recall.SessionRecall;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.secrets.Verdict;
import dev.teammemory.daemon.sync.TeamAuthors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A project's memory folder as an agent's tools see it (MCP's {@code memory_*} tools, whoever
 * serves them): search, read, list, save and delete, each confined to the folder. Every outcome is
 * a value; a refusal is one sentence a person or a model can act on, and never holds a file's
 * content, a secret or an exception's class name.
 */
public final class MemoryFolder {

  /** The most hits a search returns (recall's own cap). */
  public static final int MAX_SEARCH_RESULTS = 5;

  /** A topic file an agent saves: ample for a memory, small enough for every index and sync. */
  public static final int MAX_BODY_CHARACTERS = 20_000;

  /** What memory_read gives at most; topic files are a few kilobytes. */
  static final int MAX_READ_BYTES = 256 * 1024;

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");
  private static final DateTimeFormatter COPY_STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final Environment project;
  private final Clock clock;
  private final SecretGuard guard;

  /**
   * @param project the environment as seen from the project's directory
   */
  public MemoryFolder(Environment project, Clock clock, SecretGuard guard) {
    this.project = requireNonNull(project, "project is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.guard = requireNonNull(guard, "guard is null");
  }

  /** One memory as a listing or a search shows it. */
  public record Entry(
      String path,
      String scope,
      Optional<String> type,
      Optional<String> name,
      Optional<String> description,
      Optional<String> author,
      Optional<Instant> written,
      Instant modified) {
    public Entry {
      requireNonNull(path, "path is null");
      requireNonNull(scope, "scope is null");
      requireNonNull(type, "type is null");
      requireNonNull(name, "name is null");
      requireNonNull(description, "description is null");
      requireNonNull(author, "author is null");
      requireNonNull(written, "written is null");
      requireNonNull(modified, "modified is null");
    }
  }

  /** A search hit: the memory and its body as recall gives it. */
  public record Hit(Entry entry, String body, boolean truncated) {
    public Hit {
      requireNonNull(entry, "entry is null");
      requireNonNull(body, "body is null");
    }
  }

  /** What a save asks for. */
  public record SaveRequest(
      String scope, String name, String type, String description, String body) {}

  /** What a tool call came to. */
  public sealed interface Outcome<T> {
    record Done<T>(T value) implements Outcome<T> {
      public Done {
        requireNonNull(value, "value is null");
      }
    }

    /**
     * @param reason one sentence for the agent and the person
     */
    record Refused<T>(String reason) implements Outcome<T> {
      public Refused {
        requireNonNull(reason, "reason is null");
      }
    }
  }

  /** A read: the path as asked for and the file's text. */
  public record Read(String path, String content) {}

  /** A save: where it went, and whether it started a file or replaced one. */
  public record Saved(String path, String scope, boolean created, Optional<Path> keptCopy) {}

  /** A delete: what went, and where its copy is kept. */
  public record Deleted(String path, Path keptCopy) {}

  /** A delete not confirmed yet: what would go. */
  public record WouldDelete(String path) {}

  public Outcome<List<Hit>> search(String query, int limit) throws IOException {
    if (query == null || query.isBlank()) {
      return refused("give a query: the words of what you are looking for");
    }
    if (limit < 1 || limit > MAX_SEARCH_RESULTS) {
      return refused("limit must be between 1 and " + MAX_SEARCH_RESULTS + ", not " + limit);
    }
    Optional<MemoryLocation> location = location();
    if (location.isEmpty()) {
      return refused(memoryOff());
    }
    LanguageModel model;
    try {
      model = LanguageModel.fromEnvironment(project.variables());
    } catch (IllegalArgumentException misconfigured) {
      return refused(misconfigured.getMessage() + "; fix the variable or unset it");
    }
    RecallReport report =
        new SessionRecall(ClaudeLayout.of(project), model, clock)
            .recall(project, query.strip(), Optional.empty(), List.of());
    TeammateNotes notes = TeammateNotes.of(project, location.get());
    List<Hit> hits = new ArrayList<>();
    for (RecalledMemory memory : report.memories()) {
      if (hits.size() >= limit) {
        break;
      }
      Path file = memory.file().toAbsolutePath().normalize();
      MemoryHeader header =
          MemoryScan.scan(file.getParent(), MemoryScan.MAX_FILES).stream()
              .filter(candidate -> candidate.file().equals(file))
              .findFirst()
              .orElse(
                  new MemoryHeader(
                      memory.filename(),
                      file,
                      memory.modified(),
                      Optional.empty(),
                      Optional.empty(),
                      Optional.empty()));
      String body =
          notes.isTeamMemory(file) ? notes.fence(file, memory.content()).text() : memory.content();
      hits.add(new Hit(entry(location.get(), header, notes), body, memory.truncated()));
    }
    return new Outcome.Done<>(List.copyOf(hits));
  }

  /** The topic files under {@code prefix} ({@code team/} for the team's), newest first. */
  public Outcome<List<Entry>> list(Optional<String> prefix) throws IOException {
    Optional<MemoryLocation> location = location();
    if (location.isEmpty()) {
      return refused(memoryOff());
    }
    String wanted = prefix.map(String::strip).orElse("");
    if (wanted.startsWith("/") || wanted.contains("..") || wanted.indexOf('\0') >= 0) {
      return refused(
          "prefix is a path inside the memory folder, such as team/ or project-, not " + wanted);
    }
    TeammateNotes notes = TeammateNotes.of(project, location.get());
    List<Entry> entries = new ArrayList<>();
    for (MemoryHeader header : MemoryScan.scan(location.get().directory())) {
      if (header.filename().startsWith(wanted)) {
        entries.add(entry(location.get(), header, notes));
      }
    }
    return new Outcome.Done<>(List.copyOf(entries));
  }

  public Outcome<Read> read(String path) throws IOException {
    Optional<MemoryLocation> location = location();
    if (location.isEmpty()) {
      return refused(memoryOff());
    }
    Outcome<Path> file = inside(location.get(), path, true);
    if (file instanceof Outcome.Refused<Path> refused) {
      return refused(refused.reason());
    }
    Path found = ((Outcome.Done<Path>) file).value();
    if (!Files.isRegularFile(found, LinkOption.NOFOLLOW_LINKS)) {
      return refused(
          path + " is not a memory in this project; memory_list shows the ones there are");
    }
    String content = TextFiles.read(found, MAX_READ_BYTES);
    TeammateNotes notes = TeammateNotes.of(project, location.get());
    return new Outcome.Done<>(
        new Read(path, notes.isTeamMemory(found) ? notes.fence(found, content).text() : content));
  }

  public Outcome<Saved> save(SaveRequest request) throws IOException {
    Optional<MemoryLocation> location = location();
    if (location.isEmpty()) {
      return refused(memoryOff());
    }
    MemoryScope scope;
    if ("team".equals(request.scope())) {
      scope = MemoryScope.TEAM;
    } else if ("private".equals(request.scope())) {
      scope = MemoryScope.PRIVATE;
    } else {
      return refused("scope is team or private, not " + request.scope());
    }
    if (scope == MemoryScope.TEAM && !location.get().teamActive()) {
      return refused(
          "this project has no team memory yet (no team folder); save it as private, or ask the"
              + " person to run tmem add in the checkout");
    }
    if (request.name() == null || !NAME.matcher(request.name()).matches()) {
      return refused(
          "name is the file's name without .md: lower-case letters, digits, - and _, up to 64,"
              + " such as testing-policy");
    }
    Optional<MemoryType> type = Optional.ofNullable(request.type()).flatMap(MemoryType::parse);
    if (type.isEmpty()) {
      return refused("type is one of user, feedback, project or reference");
    }
    if (scope == MemoryScope.TEAM && type.get() == MemoryType.USER) {
      return refused("a user memory is about one person and stays private; save it as private");
    }
    String description =
        request.description() == null ? "" : TopicIndex.oneLine(request.description(), 400);
    if (description.isEmpty()) {
      return refused("description is one line saying what the memory is for");
    }
    String body = request.body() == null ? "" : request.body().strip();
    if (body.isEmpty()) {
      return refused("body is the memory itself, in markdown");
    }
    if (body.length() > MAX_BODY_CHARACTERS) {
      return refused(
          "body has "
              + body.length()
              + " characters; a memory holds at most "
              + MAX_BODY_CHARACTERS
              + ": keep the gist and point to where the rest lives");
    }
    Path directory = scope.directory(location.get());
    Path file = directory.resolve(request.name() + ".md");
    String relative = location.get().directory().relativize(file).toString().replace('\\', '/');
    String content =
        "---\nname: "
            + request.name()
            + "\ndescription: "
            + TopicIndex.quoted(description)
            + "\ntype: "
            + type.get().wireName()
            + "\nmetadata:\n  type: "
            + type.get().wireName()
            + "\n---\n\n"
            + body
            + "\n";
    if (guard.check(relative, content) instanceof Verdict.Flagged flagged) {
      return refused(
          "not saved: it holds what looks like a secret ("
              + flagged.describe()
              + "); take the secret out and save again");
    }
    if (Files.isSymbolicLink(file) || Files.isDirectory(file)) {
      return refused(relative + " is not a plain file; choose another name");
    }
    boolean created = !Files.exists(file);
    Optional<Path> copy = created ? Optional.empty() : Optional.of(keepCopy(location.get(), file));
    Files.createDirectories(directory);
    AtomicFiles.write(file, content.getBytes(StandardCharsets.UTF_8));
    TopicIndex.put(directory, file, request.name(), description);
    return new Outcome.Done<>(new Saved(relative, request.scope(), created, copy));
  }

  /**
   * Deletes a private memory after {@code confirm}, keeping a copy in tmem's state folder; a team
   * memory is refused: it is the team's, and a person deletes it.
   */
  public Outcome<?> delete(String path, boolean confirm) throws IOException {
    Optional<MemoryLocation> location = location();
    if (location.isEmpty()) {
      return refused(memoryOff());
    }
    Outcome<Path> file = inside(location.get(), path, false);
    if (file instanceof Outcome.Refused<Path> refused) {
      return refused;
    }
    Path found = ((Outcome.Done<Path>) file).value();
    if (MemoryScope.of(found, location.get()) == MemoryScope.TEAM) {
      return refused(
          path
              + " is a team memory: it belongs to the team, and a person deletes it in the memory"
              + " folder or the console; tell them why it should go");
    }
    if (!Files.isRegularFile(found, LinkOption.NOFOLLOW_LINKS)) {
      return refused(
          path + " is not a memory in this project; memory_list shows the ones there are");
    }
    if (!confirm) {
      return new Outcome.Done<>(new WouldDelete(path));
    }
    Path copy = keepCopy(location.get(), found);
    Files.delete(found);
    TopicIndex.remove(found.getParent(), found);
    return new Outcome.Done<>(new Deleted(path, copy));
  }

  /** The project's memory folder, or empty when auto memory is off. */
  private Optional<MemoryLocation> location() {
    MemoryLocation location = MemoryLocation.resolve(project);
    return location.enabled() ? Optional.of(location) : Optional.empty();
  }

  private String memoryOff() {
    return "memory is off for this project ("
        + MemoryLocation.resolve(project).disabledBy().orElse("disabled")
        + ")";
  }

  /**
   * The file a relative path names inside the memory folder: a topic file ({@code .md}, not the
   * index unless {@code index} allows it), no part climbing out, no symbolic link on the way.
   */
  private static Outcome<Path> inside(MemoryLocation location, String path, boolean index)
      throws IOException {
    String shown = path == null ? "" : path;
    if (path == null
        || path.isBlank()
        || path.indexOf('\0') >= 0
        || path.startsWith("/")
        || path.contains("\\")
        || !path.endsWith(".md")) {
      return refused(
          "path is a memory's path inside the memory folder as memory_list gives it, such as"
              + " team/testing-policy.md, not "
              + shown);
    }
    Path root = location.directory();
    Path file;
    try {
      file = root.resolve(path).normalize();
    } catch (InvalidPathException notAPath) {
      return refused("path is not a path: " + shown);
    }
    if (!file.startsWith(root) || file.equals(root)) {
      return refused(shown + " is outside the memory folder; only memories can be reached");
    }
    if (!index && file.getFileName().toString().equals(MemoryLocation.INDEX_FILE)) {
      return refused(
          shown + " is the index; it changes with the memories it lists, never on its own");
    }
    for (Path part = file; !part.equals(root); part = part.getParent()) {
      if (Files.isSymbolicLink(part)) {
        return refused(shown + " goes through a link; only files in the memory folder are served");
      }
    }
    return new Outcome.Done<>(file);
  }

  /** A copy of a file about to be replaced or deleted, under tmem's state folder. */
  private Path keepCopy(MemoryLocation location, Path file) throws IOException {
    Path relative = location.directory().relativize(file);
    Path copy =
        ClaudeLayout.of(project)
            .stateHome()
            .resolve("memory-copies")
            .resolve(ClaudeLayout.sanitize(location.directory().toString()))
            .resolve(COPY_STAMP.format(clock.instant()))
            .resolve(relative);
    Files.createDirectories(copy.getParent());
    AtomicFiles.write(copy, Files.readAllBytes(file));
    return copy;
  }

  private static Entry entry(MemoryLocation location, MemoryHeader header, TeammateNotes notes) {
    Path file = header.file().toAbsolutePath().normalize();
    String path = location.directory().relativize(file).toString().replace('\\', '/');
    MemoryScope scope = MemoryScope.of(file, location);
    // The server's word, never a frontmatter line a teammate could write.
    Optional<TeamAuthors.Author> author =
        scope == MemoryScope.TEAM ? notes.authorOf(file) : Optional.empty();
    return new Entry(
        path,
        scope.name().toLowerCase(Locale.ROOT),
        header.type().map(MemoryType::wireName),
        header.name(),
        header.description(),
        author.map(TeamAuthors.Author::login),
        author.flatMap(TeamAuthors.Author::at),
        header.modified());
  }

  private static <T> Outcome<T> refused(String reason) {
    return new Outcome.Refused<>(reason);
  }

  /** What a failure nobody planned for says to an agent. */
  public static String failed(String tool, Exception failure) {
    return tool + " failed: " + FailureWords.describe(failure);
  }
}
