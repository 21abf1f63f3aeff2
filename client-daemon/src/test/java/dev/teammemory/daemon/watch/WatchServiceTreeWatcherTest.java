package dev.teammemory.daemon.watch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

class WatchServiceTreeWatcherTest extends TreeWatcherContract {
  @Override
  TreeWatcher start(Path root, Consumer<TreeChange> listener) throws IOException {
    return WatchServiceTreeWatcher.start(root, listener);
  }
}
