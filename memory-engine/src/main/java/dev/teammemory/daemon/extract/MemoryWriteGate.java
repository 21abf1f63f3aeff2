package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.model.FileEditTool;
import dev.teammemory.daemon.model.Permission;
import dev.teammemory.daemon.model.PermissionGate;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.secrets.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a background memory agent (the extractor, the dream) may do, enforced on every tool call:
 * read, search (Grep) and list (Glob) any file; run shell commands that only read ({@link
 * ReadOnlyShell}); create and edit {@code .md} files inside the memory directory and nowhere else,
 * with symbolic links resolved so that a link cannot lead a write outside. Whatever would land in
 * the team folder is first run through the secret scanner: a flagged write is refused, naming the
 * rule, never the match. In daily-log mode only today's log may be written, and only by appending.
 */
public final class MemoryWriteGate implements PermissionGate {

  static final String READ = "Read";
  static final String WRITE = "Write";
  static final String BASH = "Bash";
  static final String GREP = "Grep";
  static final String GLOB = "Glob";

  /** Memory files and daily logs are a few kilobytes; the Edit tool refuses larger ones too. */
  private static final int MAX_BYTES = 4 * 1024 * 1024;

  private final Path memoryDirectory;
  private final Path teamDirectory;
  private final SecretGuard guard;
  private final Optional<Path> dailyLog;

  /** Each file a tool was let write, with its fingerprint before the first such write. */
  private final Map<Path, Optional<String>> before =
      Collections.synchronizedMap(new LinkedHashMap<>());

  /**
   * @param dailyLog today's log file when daily-log mode is on: then it is the only writable file
   */
  public MemoryWriteGate(Path memoryDirectory, SecretGuard guard, Optional<Path> dailyLog) {
    Path memory =
        requireNonNull(memoryDirectory, "memoryDirectory is null").toAbsolutePath().normalize();
    this.memoryDirectory = realPath(memory).orElse(memory);
    this.teamDirectory = this.memoryDirectory.resolve("team");
    this.guard = requireNonNull(guard, "guard is null");
    this.dailyLog =
        requireNonNull(dailyLog, "dailyLog is null")
            .map(path -> path.toAbsolutePath().normalize())
            .map(path -> realPath(path).orElse(path));
  }

  /**
   * The files a tool this gate allowed really changed, in order: a write that was allowed but then
   * failed (an Edit whose text was not found) changed nothing and is not listed.
   */
  public Set<Path> written() {
    Map<Path, Optional<String>> allowed;
    synchronized (before) {
      allowed = new LinkedHashMap<>(before);
    }
    Set<Path> changed = new LinkedHashSet<>();
    allowed.forEach(
        (file, fingerprint) -> {
          Optional<String> now = fingerprint(file);
          if (now.isPresent() && !now.equals(fingerprint)) {
            changed.add(file);
          }
        });
    return Collections.unmodifiableSet(changed);
  }

  /** A file's SHA-256, read as a stream; empty when it is missing or cannot be read. */
  private static Optional<String> fingerprint(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[8192];
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        digest.update(buffer, 0, read);
      }
      return Optional.of(HexFormat.of().formatHex(digest.digest()));
    } catch (IOException unreadable) {
      return Optional.empty();
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JDK has SHA-256", impossible);
    }
  }

  @Override
  public Permission check(String toolName, JsonNode input) {
    return switch (toolName) {
      case READ ->
          path(input, "file_path").isPresent()
              ? new Permission.Allow(input)
              : deny("Read needs an absolute file_path");
      case BASH -> {
        JsonNode command = input.get("command");
        if (command == null || !command.isTextual()) {
          yield deny("Bash needs a command");
        }
        yield switch (ReadOnlyShell.check(command.asText())) {
          case ReadOnlyShell.Verdict.ReadOnly readOnly -> new Permission.Allow(input);
          case ReadOnlyShell.Verdict.Refused refused ->
              deny("Only read-only shell commands are permitted here: " + refused.reason());
        };
      }
      // Searching and listing only read, anywhere, as Read does.
      case GREP, GLOB -> new Permission.Allow(input);
      case FileEditTool.NAME, WRITE -> write(toolName, input);
      default ->
          deny(
              toolName
                  + " is not available to this agent; it may Read, Grep, Glob, run read-only Bash,"
                  + " and Edit or Write memory files");
    };
  }

  private Permission write(String toolName, JsonNode input) {
    Optional<Path> requested = path(input, "file_path");
    if (requested.isEmpty()) {
      return deny(toolName + " needs an absolute file_path");
    }
    Optional<Path> resolved = realPath(requested.get());
    if (resolved.isEmpty()) {
      return deny(
          requested.get()
              + " goes through a symbolic link that leads nowhere; it cannot be written");
    }
    Path file = resolved.get();
    if (dailyLog.isPresent()) {
      if (!file.equals(dailyLog.get())) {
        return deny(
            "in daily-log mode only today's log "
                + dailyLog.get()
                + " may be written; "
                + "MEMORY.md and topic files are read-only");
      }
      Optional<String> appendOnly = appendOnly(toolName, input, file);
      if (appendOnly.isPresent()) {
        return deny(appendOnly.get());
      }
    } else if (!file.startsWith(memoryDirectory) || file.equals(memoryDirectory)) {
      return deny("writes are allowed only inside the memory directory " + memoryDirectory);
    }
    if (!file.getFileName().toString().endsWith(".md")) {
      return deny("only markdown (.md) memory files may be written");
    }
    if (file.startsWith(teamDirectory)) {
      Optional<String> content = contentAfter(toolName, input, file);
      if (content.isEmpty()) {
        return deny(
            "the new content of "
                + file
                + " cannot be worked out, so it cannot be checked for secrets");
      }
      if (guard.check(teamDirectory.relativize(file).toString(), content.get())
          instanceof Verdict.Flagged flagged) {
        return deny(
            "refused: team memory is shared, and this content looks like a secret ("
                + flagged.describe()
                + "); leave the secret out");
      }
    }
    before.computeIfAbsent(file, MemoryWriteGate::fingerprint);
    // The tool writes the file that was judged: through the unresolved path a Write would replace
    // a link in team/ with a team file whose content was never scanned.
    ObjectNode judged = ((ObjectNode) input).deepCopy();
    judged.put("file_path", file.toString());
    return new Permission.Allow(judged);
  }

  /** What the file would hold after the call: Write's content, or the file with Edit applied. */
  private static Optional<String> contentAfter(String toolName, JsonNode input, Path file) {
    if (toolName.equals(WRITE)) {
      return text(input, "content");
    }
    Optional<String> oldString = text(input, "old_string");
    Optional<String> newString = text(input, "new_string");
    if (oldString.isEmpty() || newString.isEmpty()) {
      return Optional.empty();
    }
    String before;
    try {
      // Read as the Edit tool reads it: a file it would refuse (not UTF-8, too large, a FIFO that
      // would block the reader) cannot be worked out here either.
      Optional<String> exact = TextFiles.readExactly(file, MAX_BYTES);
      if (exact.isEmpty()) {
        return Optional.empty();
      }
      before = exact.get();
    } catch (NoSuchFileException absent) {
      before = "";
    } catch (IOException unreadable) {
      return Optional.empty();
    }
    boolean all = input.path("replace_all").asBoolean(false);
    return Optional.of(
        oldString.get().isEmpty()
            ? newString.get()
            : all
                ? before.replace(oldString.get(), newString.get())
                : before.replaceFirst(
                    java.util.regex.Pattern.quote(oldString.get()),
                    java.util.regex.Matcher.quoteReplacement(newString.get())));
  }

  private static Optional<String> appendOnly(String toolName, JsonNode input, Path file) {
    String before;
    try {
      before = TextFiles.readIfPresent(file, MAX_BYTES).orElse("");
    } catch (IOException unreadable) {
      return Optional.of("today's log cannot be read, so an append cannot be checked");
    }
    Optional<String> after = contentAfter(toolName, input, file);
    if (after.isEmpty() || !after.get().startsWith(before)) {
      return Optional.of(
          "the daily log is append-only: keep what it says and add bullets at the end");
    }
    return Optional.empty();
  }

  private static Optional<Path> path(JsonNode input, String field) {
    Optional<String> text = text(input, field);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      Path path = Path.of(text.get());
      return path.isAbsolute() ? Optional.of(path.normalize()) : Optional.empty();
    } catch (InvalidPathException notAPath) {
      return Optional.empty();
    }
  }

  private static Optional<String> text(JsonNode input, String field) {
    JsonNode value = input.get(field);
    return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  /**
   * The path with the symbolic links of its deepest existing ancestor resolved, so that a link
   * inside memory pointing outside is judged by where it really leads.
   */
  static Optional<Path> realPath(Path path) {
    Path existing = path;
    Path rest = null;
    while (existing != null && !Files.exists(existing, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Path name = existing.getFileName();
      rest = rest == null ? name : name.resolve(rest);
      existing = existing.getParent();
    }
    if (existing == null) {
      return Optional.of(path);
    }
    try {
      Path real = existing.toRealPath();
      return Optional.of(rest == null ? real : real.resolve(rest).normalize());
    } catch (IOException danglingLink) {
      // The deepest existing entry is a link to nothing: a write would create its target,
      // wherever that is.
      return Optional.empty();
    }
  }

  private static Permission deny(String message) {
    return new Permission.Deny(message);
  }
}
