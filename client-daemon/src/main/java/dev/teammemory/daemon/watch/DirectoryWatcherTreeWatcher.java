package dev.teammemory.daemon.watch;

import static java.util.Objects.requireNonNull;

import io.methvin.watcher.DirectoryChangeEvent;
import io.methvin.watcher.DirectoryWatcher;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * A recursive watcher over the directory-watcher library: FSEvents on macOS (where the JDK's
 * watcher polls), the JDK's service with per-directory registration elsewhere. File hashing is off
 * because the sync engine hashes what it sends itself.
 */
public final class DirectoryWatcherTreeWatcher implements TreeWatcher {

  private static final Logger LOG = Logger.getLogger(DirectoryWatcherTreeWatcher.class.getName());

  private final DirectoryWatcher watcher;
  private volatile boolean closed;

  private DirectoryWatcherTreeWatcher(Path root, Consumer<TreeChange> listener) throws IOException {
    requireNonNull(root, "root is null");
    requireNonNull(listener, "listener is null");
    this.watcher =
        DirectoryWatcher.builder()
            .path(root)
            .fileHashing(false)
            .logger(NOPLogger.NOP_LOGGER)
            .listener(
                event -> {
                  if (!closed) {
                    deliver(listener, root, event);
                  }
                })
            .build();
  }

  /** Registers the whole tree under {@code root} and starts delivering changes to the listener. */
  public static DirectoryWatcherTreeWatcher start(Path root, Consumer<TreeChange> listener)
      throws IOException {
    DirectoryWatcherTreeWatcher treeWatcher = new DirectoryWatcherTreeWatcher(root, listener);
    treeWatcher.watcher.watchAsync(
        command ->
            Thread.ofPlatform().daemon().name("tmem-watch-" + root.getFileName()).start(command));
    return treeWatcher;
  }

  private static void deliver(
      Consumer<TreeChange> listener, Path root, DirectoryChangeEvent event) {
    TreeChange change =
        switch (event.eventType()) {
          case CREATE -> new TreeChange(event.path(), TreeChange.Kind.CREATED);
          case MODIFY -> new TreeChange(event.path(), TreeChange.Kind.MODIFIED);
          case DELETE -> new TreeChange(event.path(), TreeChange.Kind.DELETED);
          case OVERFLOW -> new TreeChange(root, TreeChange.Kind.OVERFLOW);
        };
    try {
      listener.accept(change);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "a change listener failed: " + e, e);
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      watcher.close();
    } catch (IOException e) {
      LOG.log(Level.FINE, "closing the directory watcher failed: " + e.getMessage());
    }
  }
}
