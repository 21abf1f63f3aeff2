package dev.teammemory.daemon.watch;

import dev.teammemory.daemon.testing.Conditions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchServiceTreeWatcherTest extends TreeWatcherContract {
  @Override
  TreeWatcher start(Path root, Consumer<TreeChange> listener) throws IOException {
    return WatchServiceTreeWatcher.start(root, listener);
  }

  @Test
  void aWatchedFolderDeletedAndPutBackIsWatchedAgain(@TempDir Path parent) throws Exception {
    Path team = Files.createDirectories(parent.resolve("team"));
    List<TreeChange> changes = new CopyOnWriteArrayList<>();
    try (TreeWatcher watcher = start(team, changes::add)) {
      Files.delete(team);
      Files.createDirectories(team);
      Path file = team.resolve("back.md");

      Conditions.await(
          "an edit in the folder put back is reported",
          Duration.ofSeconds(20),
          () -> {
            Conditions.quietly(
                () -> Files.writeString(file, "written " + System.nanoTime()) != null);
            return changes.stream().anyMatch(change -> change.path().equals(file));
          });
    }
  }
}
