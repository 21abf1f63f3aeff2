package dev.teammemory.daemon.extract;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.BiPredicate;

/**
 * The regular files below a folder (or the one file it names), for the agent's search tools: hidden
 * folders ({@code .git}, {@code .venv}) are not entered and unreadable entries are passed over, as
 * the agent's own Grep and Glob do.
 */
final class VisibleFiles {

  private VisibleFiles() {}

  /**
   * Calls {@code visit} for each file until it returns false.
   *
   * @throws IOException when {@code root} itself cannot be read
   */
  static void walk(Path root, BiPredicate<Path, BasicFileAttributes> visit) throws IOException {
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attrs) {
            return !directory.equals(root) && directory.getFileName().toString().startsWith(".")
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (!attrs.isRegularFile()) {
              return FileVisitResult.CONTINUE;
            }
            return visit.test(file, attrs) ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException failure) {
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
