package dev.teammemory.daemon.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.Conditions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One contract, run against every {@link TreeWatcher} implementation. */
abstract class TreeWatcherContract {

  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path root;
  private final List<TreeChange> changes = new CopyOnWriteArrayList<>();
  private TreeWatcher watcher;

  abstract TreeWatcher start(Path root, Consumer<TreeChange> listener) throws IOException;

  @AfterEach
  void stop() {
    if (watcher != null) {
      watcher.close();
    }
  }

  private boolean seen(Path path, TreeChange.Kind... kinds) {
    return changes.stream()
        .anyMatch(change -> change.path().equals(path) && List.of(kinds).contains(change.kind()));
  }

  @Test
  void reportsAFileCreatedInAFolderThatExistedAtStart() throws IOException {
    Files.createDirectories(root.resolve("testing"));
    watcher = start(root, changes::add);
    Path file = Files.writeString(root.resolve("testing/no-mocks.md"), "# no mocks\n");
    Conditions.await(
        "the new file is reported",
        DEADLINE,
        () -> seen(file, TreeChange.Kind.CREATED, TreeChange.Kind.MODIFIED));
  }

  @Test
  void reportsFilesInANestedFolderCreatedAfterTheWatchStarted() throws IOException {
    watcher = start(root, changes::add);
    Path deep = Files.createDirectories(root.resolve("a/b/c"));
    Path first = Files.writeString(deep.resolve("first.md"), "1");
    Conditions.await(
        "the file in the new folder is reported",
        DEADLINE,
        () -> seen(first, TreeChange.Kind.CREATED, TreeChange.Kind.MODIFIED));
    // The new folder is now watched itself: a later file there is reported too.
    Path second = Files.writeString(deep.resolve("second.md"), "2");
    Conditions.await(
        "a later file in the new folder is reported",
        DEADLINE,
        () -> seen(second, TreeChange.Kind.CREATED, TreeChange.Kind.MODIFIED));
  }

  @Test
  void reportsModificationsAndDeletions() throws IOException {
    Path file = Files.writeString(root.resolve("MEMORY.md"), "one");
    watcher = start(root, changes::add);
    Files.writeString(file, "two");
    Conditions.await(
        "the edit is reported",
        DEADLINE,
        () -> seen(file, TreeChange.Kind.MODIFIED, TreeChange.Kind.CREATED));
    Files.delete(file);
    Conditions.await(
        "the deletion is reported", DEADLINE, () -> seen(file, TreeChange.Kind.DELETED));
    assertThat(changes).allMatch(change -> change.path().startsWith(root));
  }
}
