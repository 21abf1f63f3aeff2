package dev.teammemory.daemon.home;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The daemon's own state folder, one resolution for the daemon, the commands and the hooks: {@code
 * $XDG_STATE_HOME/tmem} when that is an absolute path, else {@code $HOME/.local/state/tmem}. {@code
 * $HOME} wins over Java's {@code user.home}, as it does for the agent (Node's {@code
 * os.homedir()}).
 */
public final class StateHome {

  private StateHome() {}

  public static Path of(Environment environment) {
    return of(environment.variables(), environment.home());
  }

  /** The state folder for these variables, with the home directory {@code $HOME} names. */
  public static Path of(Map<String, String> variables) {
    String home = variables.getOrDefault("HOME", "");
    return of(variables, Path.of(home.isBlank() ? System.getProperty("user.home") : home));
  }

  private static Path of(Map<String, String> variables, Path home) {
    String configured = variables.get("XDG_STATE_HOME");
    Path base =
        configured == null || configured.isBlank() || !Path.of(configured).isAbsolute()
            ? home.resolve(".local").resolve("state")
            : Path.of(configured);
    return base.resolve("tmem").toAbsolutePath().normalize();
  }

  /**
   * Moves state that an earlier tmem kept under Java's {@code user.home} while {@code $HOME} named
   * another folder (the daemon used the one, its hooks the other) into the state folder: each file
   * or folder the state folder does not have yet is moved, and one it already has stays where it
   * is, so nothing is overwritten and nothing is lost.
   *
   * @return what was moved, as paths inside the state folder
   */
  public static List<Path> moveLegacyState(Environment environment, Path javaUserHome)
      throws IOException {
    Path current = of(environment);
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
