package dev.teammemory.daemon.watch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Reports every change anywhere under one directory tree, including in folders created after the
 * watch started. Listeners run on the watcher's own thread and must not block.
 *
 * <p>Two implementations: on Linux the JDK's {@code WatchService} (inotify, one registration per
 * directory, since {@code FILE_TREE} is unsupported there); on macOS, where the JDK's watcher polls
 * every few seconds, the directory-watcher library's native FSEvents watcher.
 */
public interface TreeWatcher extends AutoCloseable {

  /** Starts the right watcher for this operating system. */
  static TreeWatcher start(Path root, Consumer<TreeChange> listener) throws IOException {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (os.contains("mac")) {
      return DirectoryWatcherTreeWatcher.start(root, listener);
    }
    return WatchServiceTreeWatcher.start(root, listener);
  }

  /** Stops watching; no listener call starts after this returns. */
  @Override
  void close();
}
