package dev.teammemory.daemon.extract;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.function.BiPredicate;

/**
 * The regular files below a folder (or the one file it names), for the agent's search tools: hidden
 * folders ({@code .git}, {@code .venv}) are not entered and unreadable entries are passed over, as
 * the agent's own Grep and Glob do. A walk has a time budget: the gate lets these tools run on any
 * folder, {@code /} included, and they run while the extraction lock is held.
 */
final class VisibleFiles {

  /** How long a search tool may walk before it answers with what it has. */
  static final Duration TIME_BUDGET = Duration.ofSeconds(5);

  /** How a walk ended. */
  enum Walk {
    /** Every visible file was visited. */
    COMPLETE,
    /** The visitor asked to stop. */
    STOPPED,
    /** The time budget ran out first. */
    OUT_OF_TIME
  }

  private VisibleFiles() {}

  /**
   * Calls {@code visit} for each file until it returns false or {@code budget} has passed.
   *
   * @throws IOException when {@code root} itself cannot be read
   */
  static Walk walk(Path root, Duration budget, BiPredicate<Path, BasicFileAttributes> visit)
      throws IOException {
    long deadline = System.nanoTime() + budget.toNanos();
    Walk[] ending = {Walk.COMPLETE};
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attrs) {
            if (outOfTime()) {
              return FileVisitResult.TERMINATE;
            }
            return !directory.equals(root) && directory.getFileName().toString().startsWith(".")
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (outOfTime()) {
              return FileVisitResult.TERMINATE;
            }
            if (!attrs.isRegularFile()) {
              return FileVisitResult.CONTINUE;
            }
            if (visit.test(file, attrs)) {
              return FileVisitResult.CONTINUE;
            }
            ending[0] = Walk.STOPPED;
            return FileVisitResult.TERMINATE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException failure) {
            return outOfTime() ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
          }

          private boolean outOfTime() {
            if (System.nanoTime() - deadline >= 0) {
              ending[0] = Walk.OUT_OF_TIME;
              return true;
            }
            return false;
          }
        });
    return ending[0];
  }

  /** The note a tool adds to an answer its time budget cut short. */
  static String outOfTimeNote(Duration budget) {
    return "(search stopped after "
        + budget.toSeconds()
        + " seconds; the answer is incomplete, narrow the path or pattern)";
  }
}
