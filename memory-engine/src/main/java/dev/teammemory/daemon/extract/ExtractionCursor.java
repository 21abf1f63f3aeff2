package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.StateFiles;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The last message each session's extraction has looked at, in the daemon's state directory ({@code
 * <state>/extract/cursors/}), so that every turn is looked at once.
 */
final class ExtractionCursor {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path directory;

  ExtractionCursor(Path stateHome) {
    this.directory =
        requireNonNull(stateHome, "stateHome is null").resolve("extract").resolve("cursors");
  }

  Optional<String> load(Path transcript) {
    // A lost cursor only means the context is looked at again; saving is idempotent.
    return StateFiles.readObject(file(transcript))
        .map(root -> root.get("lastMessage"))
        .filter(JsonNode::isTextual)
        .map(JsonNode::asText);
  }

  void save(Path transcript, String lastMessage) throws IOException {
    String body =
        JSON.createObjectNode()
            .put("transcript", transcript.toString())
            .put("lastMessage", lastMessage)
            .toString();
    AtomicFiles.write(file(transcript), body.getBytes(StandardCharsets.UTF_8));
  }

  private Path file(Path transcript) {
    return directory.resolve(
        ClaudeLayout.sanitize(transcript.toAbsolutePath().normalize().toString()) + ".json");
  }
}
