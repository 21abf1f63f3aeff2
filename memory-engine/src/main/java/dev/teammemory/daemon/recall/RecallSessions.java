package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.StateFiles;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Remembers, per session, which memories recall has surfaced, in the daemon's state directory
 * ({@code <state>/recall/<session id>.json}), so that separate {@code tmem recall --session} calls
 * of one session share the "not shown before" rule and the budget, and with them the compaction
 * they were made in: after the next compaction both start afresh.
 */
final class RecallSessions {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path directory;

  RecallSessions(Path stateHome) {
    this.directory = requireNonNull(stateHome, "stateHome is null").resolve("recall");
  }

  /**
   * What the session was shown in its current compaction: a record made before the latest
   * compaction is set aside, as the reference's count restarts when compaction drops the messages
   * it counts.
   *
   * @param compaction the latest compaction of the session (empty string: none yet), or empty when
   *     the transcript is unknown and the record is taken as it is
   */
  SurfacedMemories load(String sessionId, Optional<String> compaction) throws IOException {
    Path file = file(sessionId);
    // A lost or torn record only loses what was surfaced; recall starts the session afresh.
    Optional<JsonNode> read = StateFiles.readObject(file);
    if (read.isEmpty()) {
      return SurfacedMemories.NONE;
    }
    JsonNode root = read.get();
    if (compaction.isPresent() && !compaction.get().equals(root.path("compaction").asText(""))) {
      return SurfacedMemories.NONE;
    }
    Set<Path> paths = new HashSet<>();
    for (JsonNode path : root.path("surfaced")) {
      if (path.isTextual()) {
        paths.add(Path.of(path.asText()));
      }
    }
    return new SurfacedMemories(paths, Math.max(0, root.path("bytes").asLong(0)));
  }

  /**
   * @param compaction the session's latest compaction, recorded so that the next one resets the
   *     record; empty keeps what was recorded
   */
  void save(String sessionId, SurfacedMemories surfaced, Optional<String> compaction)
      throws IOException {
    Path file = file(sessionId);
    Files.createDirectories(directory);
    ObjectNode root = JSON.createObjectNode();
    Optional<String> recorded = compaction.isPresent() ? compaction : recordedCompaction(file);
    recorded.ifPresent(uuid -> root.put("compaction", uuid));
    ArrayNode paths = root.putArray("surfaced");
    surfaced.paths().stream().map(Path::toString).sorted().forEach(paths::add);
    root.put("bytes", surfaced.bytes());
    AtomicFiles.write(file, root.toString());
  }

  private static Optional<String> recordedCompaction(Path file) {
    return StateFiles.readObject(file)
        .filter(root -> root.path("compaction").isTextual())
        .map(root -> root.path("compaction").asText());
  }

  private Path file(String sessionId) {
    return directory.resolve(ClaudeLayout.checkSessionId(sessionId) + ".json");
  }

  static long utf8Length(String text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
