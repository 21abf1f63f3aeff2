package dev.teammemory.daemon.command;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Moving a person's state between homes: the CLI's business at start-up, not the engine's, which
 * only reads where the state folder is ({@link StateHome}).
 */
final class LegacyStateMove {

  private LegacyStateMove() {}

  /**
   * Moves state that an earlier tmem kept under Java's {@code user.home} while {@code $HOME} named
   * another folder (the daemon used the one, its hooks the other) into the state folder: each file
   * or folder the state folder does not have yet is moved, and one it already has stays where it
   * is, so nothing is overwritten and nothing is lost.
   *
   * @return what was moved, as paths inside the state folder
   */
  static List<Path> move(Environment environment, Path javaUserHome) throws IOException {
    Path current = StateHome.of(environment);
    Optional<Path> legacy = legacy(environment, javaUserHome).filter(Files::isDirectory);
    if (legacy.isEmpty() || legacy.get().equals(current)) {
      return List.of();
    }
    List<Path> moved = new ArrayList<>();
    Files.createDirectories(current);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(legacy.get())) {
      for (Path entry : entries) {
        Path target = current.resolve(entry.getFileName().toString());
        if (Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        try {
          Files.move(entry, target);
          moved.add(target);
        } catch (FileAlreadyExistsException movedMeanwhile) {
          // Another tmem process moved or created it at the same moment; theirs stands.
        }
      }
    }
    return List.copyOf(moved);
  }

  /** Where state went before: under {@code user.home}, when no absolute XDG_STATE_HOME was set. */
  private static Optional<Path> legacy(Environment environment, Path javaUserHome) {
    String configured = environment.variables().get("XDG_STATE_HOME");
    if (configured != null && !configured.isBlank() && Path.of(configured).isAbsolute()) {
      return Optional.empty();
    }
    return Optional.of(
        javaUserHome
            .resolve(".local")
            .resolve("state")
            .resolve("tmem")
            .toAbsolutePath()
            .normalize());
  }
}
