package dev.teammemory.daemon.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the canonical root of the git repository a directory is in: for a linked worktree, the main
 * checkout's root, so that every worktree of a repository shares one memory directory.
 */
final class GitRoot {

  private GitRoot() {}

  /** The canonical root, or empty when {@code start} is not inside a git repository. */
  static Optional<Path> canonical(Path start) {
    Optional<Path> root = find(start);
    return root.map(GitRoot::mainCheckout);
  }

  /** The nearest ancestor (or {@code start} itself) holding a {@code .git} directory or file. */
  static Optional<Path> find(Path start) {
    for (Path directory = start.toAbsolutePath().normalize();
        directory != null;
        directory = directory.getParent()) {
      if (Files.exists(directory.resolve(".git"))) {
        return Optional.of(directory);
      }
    }
    return Optional.empty();
  }

  /**
   * A worktree's {@code .git} is a file pointing at {@code <main>/.git/worktrees/<name>}, whose
   * {@code commondir} names the main {@code .git}. Anything that does not check out (a submodule, a
   * bare repository, a pointer that leads somewhere else) keeps the worktree's own root.
   */
  private static Path mainCheckout(Path root) {
    Path dotGit = root.resolve(".git");
    if (!Files.isRegularFile(dotGit)) {
      return root;
    }
    try {
      String pointer = Files.readString(dotGit, StandardCharsets.UTF_8).strip();
      if (!pointer.startsWith("gitdir:")) {
        return root;
      }
      Path gitDir = root.resolve(pointer.substring("gitdir:".length()).strip()).normalize();
      Path commonDirFile = gitDir.resolve("commondir");
      if (!Files.isRegularFile(commonDirFile)) {
        return root;
      }
      Path commonDir =
          gitDir
              .resolve(Files.readString(commonDirFile, StandardCharsets.UTF_8).strip())
              .normalize();
      boolean linkedWorktree =
          gitDir.getParent() != null
              && gitDir.getParent().getFileName() != null
              && gitDir.getParent().getFileName().toString().equals("worktrees")
              && gitDir.getParent().getParent().equals(commonDir);
      if (!linkedWorktree
          || commonDir.getFileName() == null
          || !commonDir.getFileName().toString().equals(".git")
          || !Files.isDirectory(commonDir)) {
        return root;
      }
      return commonDir.getParent();
    } catch (IOException | RuntimeException unreadable) {
      return root;
    }
  }
}
