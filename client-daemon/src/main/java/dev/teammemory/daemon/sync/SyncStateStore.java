package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.logging.Logger;

/** Reads and atomically writes one project's {@code sync-state.json}. */
public final class SyncStateStore {

  private static final Logger LOG = Logger.getLogger(SyncStateStore.class.getName());
  static final String FILE_NAME = "sync-state.json";
  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private final Path file;

  public SyncStateStore(Path stateDir) {
    this.file = requireNonNull(stateDir, "stateDir is null").resolve(FILE_NAME);
  }

  public Path file() {
    return file;
  }

  /** The saved state, or empty when there is none yet. */
  public Optional<SyncState> read() {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(file.toFile(), SyncState.class));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not read the sync state " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The saved state of this target, or a fresh one. A state file that cannot be read is moved aside
   * (it is rebuilt by the next pull; nothing on disk or on the server depends on it).
   */
  SyncState load(SyncTarget target) {
    try {
      Optional<SyncState> saved = read();
      if (saved.isPresent()
          && saved.get().serverUrl().equals(target.serverUrl())
          && saved.get().repo().equalsIgnoreCase(target.repo())) {
        return saved.get();
      }
    } catch (UncheckedIOException e) {
      Path aside = file.resolveSibling(FILE_NAME + ".unreadable");
      LOG.warning(e.getMessage() + "; moved it to " + aside + " and starting afresh");
      try {
        Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException moveFailure) {
        throw new UncheckedIOException(moveFailure);
      }
    }
    return SyncState.initial(target.serverUrl(), target.repo(), target.teamDir().toString());
  }

  void save(SyncState state) {
    try {
      AtomicFiles.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(state));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not write the sync state " + file + ": " + e.getMessage(), e);
    }
  }
}
