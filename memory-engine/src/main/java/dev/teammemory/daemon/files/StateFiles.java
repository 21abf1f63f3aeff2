package dev.teammemory.daemon.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The small JSON files tmem keeps its own state in (what recall showed a session, where notes
 * stand, extraction cursors, circuit breakers, consolidation runs). They are written with {@link
 * AtomicFiles}; one that is missing, torn by a crash, or not a JSON object reads as empty, because
 * losing such state only means starting that piece afresh.
 */
public final class StateFiles {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The largest state file read; anything larger is not one of ours. */
  private static final int MAX_BYTES = 4 * 1024 * 1024;

  private StateFiles() {}

  public static Optional<JsonNode> readObject(Path file) {
    try {
      JsonNode root = JSON.readTree(TextFiles.read(file, MAX_BYTES));
      return root != null && root.isObject() ? Optional.of(root) : Optional.empty();
    } catch (IOException missingOrTorn) {
      return Optional.empty();
    }
  }
}
