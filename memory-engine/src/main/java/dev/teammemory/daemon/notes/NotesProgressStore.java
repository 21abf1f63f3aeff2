package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.StateFiles;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Keeps {@link NotesProgress} in the daemon's state directory ({@code <state>/session-notes/}), one
 * small JSON file per notes file. The agent's own folder only ever holds the notes.
 */
public final class NotesProgressStore {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path directory;

  public NotesProgressStore(Path stateHome) {
    this.directory = requireNonNull(stateHome, "stateHome is null").resolve("session-notes");
  }

  Path lockFile(Path notes) {
    return directory.resolve(key(notes) + ".lock");
  }

  Path directory() {
    return directory;
  }

  public NotesProgress load(Path notes) {
    // Losing the progress only means the next update is judged as a first one.
    Optional<JsonNode> read = StateFiles.readObject(file(notes));
    if (read.isEmpty()) {
      return NotesProgress.NONE;
    }
    JsonNode root = read.get();
    return new NotesProgress(
        root.path("initialized").asBoolean(false),
        Math.max(0, root.path("tokensAtLastUpdate").asLong(0)),
        text(root, "lastUpdateMessage"),
        text(root, "lastSummarizedMessage"),
        text(root, "lastUpdate").flatMap(NotesProgressStore::instant));
  }

  void save(Path notes, NotesProgress progress) throws IOException {
    Files.createDirectories(directory);
    ObjectNode root = JSON.createObjectNode();
    root.put("notes", notes.toString());
    root.put("initialized", progress.initialized());
    root.put("tokensAtLastUpdate", progress.tokensAtLastUpdate());
    root.put("lastUpdateMessage", progress.lastUpdateMessage().orElse(null));
    root.put("lastSummarizedMessage", progress.lastSummarizedMessage().orElse(null));
    root.put("lastUpdate", progress.lastUpdate().map(Instant::toString).orElse(null));
    Path target = file(notes);
    AtomicFiles.write(target, root.toString());
  }

  private Path file(Path notes) {
    return directory.resolve(key(notes) + ".json");
  }

  private static String key(Path notes) {
    return ClaudeLayout.sanitize(notes.toAbsolutePath().normalize().toString());
  }

  private static Optional<String> text(JsonNode root, String field) {
    JsonNode value = root.get(field);
    return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException corrupt) {
      return Optional.empty();
    }
  }
}
