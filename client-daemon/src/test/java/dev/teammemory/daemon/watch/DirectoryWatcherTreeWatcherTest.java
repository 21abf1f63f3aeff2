package dev.teammemory.daemon.watch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

class DirectoryWatcherTreeWatcherTest extends TreeWatcherContract {
  @Override
  TreeWatcher start(Path root, Consumer<TreeChange> listener) throws IOException {
    return DirectoryWatcherTreeWatcher.start(root, listener);
  }
}
