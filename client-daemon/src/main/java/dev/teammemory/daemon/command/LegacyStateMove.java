package dev.teammemory.daemon.command;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Moving a person's state between homes: the CLI's business at start-up, not the engine's, which
 * only reads where the state folder is ({@link StateHome}).
 */
final class LegacyStateMove {

  private LegacyStateMove() {}

  /** What {@link #move} did. */
  sealed interface Result {
    /** Nothing to move: no state under {@code user.home}, or it is the state folder. */
    record Nothing() implements Result {}

    /** Moved these entries, as paths inside the state folder. */
    record Moved(List<Path> entries) implements Result {
      public Moved {
        entries = List.copyOf(entries);
      }
    }

    /** Left alone, for this reason in words. */
    record LeftAlone(Path from, String why) implements Result {}
  }

  /**
   * Moves state that an earlier tmem kept under Java's {@code user.home} while {@code $HOME} named
   * another folder (the daemon used the one, its hooks the other) into the state folder: each file
   * or folder the state folder does not have yet is moved, and one it already has stays where it
   * is, so nothing is overwritten and nothing is lost. Only when that state is this user's, no
   * process holds a lock in it (a running daemon), and the state folder has no {@code
   * projects.json} of its own: a command run with another {@code HOME} (a script, {@code sudo}, a
   * test) must not take a running daemon's state away from it.
   */
  static Result move(Environment environment, Path javaUserHome) throws IOException {
    Path current = StateHome.of(environment);
    Optional<Path> found = legacy(environment, javaUserHome).filter(Files::isDirectory);
    if (found.isEmpty() || found.get().equals(current) || isEmpty(found.get())) {
      return new Result.Nothing();
    }
    Path legacy = found.get();
    if (Files.exists(current.resolve("projects.json"))) {
      return new Result.LeftAlone(legacy, current + " has projects of its own");
    }
    if (!ownedByThisUser(legacy)) {
      return new Result.LeftAlone(legacy, "it belongs to another user");
    }
    if (holdsALock(legacy)) {
      return new Result.LeftAlone(legacy, "a running tmem daemon uses it");
    }
    List<Path> moved = new ArrayList<>();
    Files.createDirectories(current);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(legacy)) {
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
    return moved.isEmpty() ? new Result.Nothing() : new Result.Moved(moved);
  }

  private static boolean isEmpty(Path folder) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      return !entries.iterator().hasNext();
    }
  }

  /** Whether the folder's owner is the user this process runs as (by uid where it is known). */
  private static boolean ownedByThisUser(Path folder) throws IOException {
    Path self = Path.of("/proc/self");
    try {
      if (Files.exists(self)) {
        return Files.getAttribute(folder, "unix:uid", LinkOption.NOFOLLOW_LINKS)
            .equals(Files.getAttribute(self, "unix:uid"));
      }
    } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
      // Fall back to the owner's name below.
    }
    return Files.getOwner(folder, LinkOption.NOFOLLOW_LINKS)
        .getName()
        .equals(System.getProperty("user.name"));
  }

  /**
   * Whether another process holds one of the lock files in the state (a daemon's project lock, a
   * consolidation lock...). Only files named {@code lock} or {@code *.lock}, up to three folders
   * deep; none is created, and a lock taken to test is let go at once.
   */
  private static boolean holdsALock(Path legacy) throws IOException {
    try (Stream<Path> files = Files.walk(legacy, 3)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (!(name.equals("lock") || name.endsWith(".lock"))
            || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        try (FileChannel channel =
            FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          FileLock lock;
          try {
            lock = channel.tryLock();
          } catch (OverlappingFileLockException thisProcess) {
            return true;
          }
          if (lock == null) {
            return true;
          }
          lock.release();
        } catch (IOException unreadable) {
          // A lock file we cannot open is someone else's: leave the state alone.
          return true;
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return false;
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
