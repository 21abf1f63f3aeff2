package dev.teammemory.daemon.sync;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.protocol.Timestamps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * {@code tmem team confirm-deletes} and the syncing process are different processes: the command
 * leaves this file in the project's state folder, and the engine releases its delete hold when it
 * next scans and finds it.
 */
public final class DeleteConfirmation {

  static final String FILE_NAME = "confirm-deletes";

  private DeleteConfirmation() {}

  /** Asks the syncing process to release its delete hold. */
  public static void request(Path stateDir) throws IOException {
    AtomicFiles.write(
        stateDir.resolve(FILE_NAME), (Timestamps.format(Instant.now()) + "\n").getBytes(UTF_8));
  }

  /** True (once) when a confirmation is waiting; it is consumed. */
  static boolean take(Path stateDir) {
    try {
      return Files.deleteIfExists(stateDir.resolve(FILE_NAME));
    } catch (IOException e) {
      return false;
    }
  }
}
