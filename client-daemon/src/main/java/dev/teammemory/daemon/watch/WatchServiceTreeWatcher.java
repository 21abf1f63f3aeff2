package dev.teammemory.daemon.watch;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A recursive watcher over the JDK's {@code WatchService}: it registers every directory of the
 * tree, registers new directories as they appear (reporting the files already inside them, which
 * were created before the registration could see them), and walks the whole tree again on OVERFLOW.
 * Symbolic links are never followed.
 */
public final class WatchServiceTreeWatcher implements TreeWatcher {

  private static final Logger LOG = Logger.getLogger(WatchServiceTreeWatcher.class.getName());
  private static final Duration ROOT_POLL = Duration.ofSeconds(1);

  private final Path root;
  private final Consumer<TreeChange> listener;
  private final WatchService service;
  private final Map<WatchKey, Path> directories = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  /**
   * False while the root itself is gone (deleted, or moved away): its watch is void then, and
   * nothing would ever report again, so the root is looked for every {@link #ROOT_POLL} until it is
   * back, and then watched and walked again.
   */
  private boolean rootWatched = true;

  private WatchServiceTreeWatcher(Path root, Consumer<TreeChange> listener) throws IOException {
    this.root = requireNonNull(root, "root is null");
    this.listener = requireNonNull(listener, "listener is null");
    this.service = root.getFileSystem().newWatchService();
    registerTree(root, false);
    this.thread =
        Thread.ofPlatform()
            .daemon()
            .name("tmem-watch-" + root.getFileName())
            .unstarted(this::deliverEvents);
  }

  /** Registers the whole tree under {@code root} and starts delivering changes to the listener. */
  public static WatchServiceTreeWatcher start(Path root, Consumer<TreeChange> listener)
      throws IOException {
    WatchServiceTreeWatcher watcher = new WatchServiceTreeWatcher(root, listener);
    watcher.thread.start();
    return watcher;
  }

  private void deliverEvents() {
    while (!closed) {
      WatchKey key;
      try {
        key =
            rootWatched
                ? service.take()
                : service.poll(ROOT_POLL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      if (key == null) {
        if (Files.isDirectory(root, NOFOLLOW_LINKS)) {
          rootWatched = true;
          rescan();
        }
        continue;
      }
      Path directory = directories.get(key);
      for (WatchEvent<?> event : key.pollEvents()) {
        if (closed) {
          return;
        }
        if (event.kind() == OVERFLOW || directory == null) {
          rescan();
          continue;
        }
        Path child = directory.resolve((Path) event.context());
        if (event.kind() == ENTRY_CREATE && Files.isDirectory(child, NOFOLLOW_LINKS)) {
          registerQuietly(child);
        }
        report(new TreeChange(child, kindOf(event.kind())));
      }
      if (!key.reset() && root.equals(directories.remove(key))) {
        rootWatched = false;
      }
    }
  }

  private void rescan() {
    registerQuietly(root);
    report(new TreeChange(root, TreeChange.Kind.OVERFLOW));
  }

  private void registerQuietly(Path directory) {
    try {
      registerTree(directory, directory != root);
    } catch (IOException | UncheckedIOException e) {
      // The folder may vanish while we walk it; the next change or rescan catches up.
      LOG.log(Level.FINE, "could not watch " + directory + ": " + e.getMessage());
    }
  }

  private void registerTree(Path start, boolean reportFiles) throws IOException {
    Files.walkFileTree(
        start,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes)
              throws IOException {
            if (closed) {
              return FileVisitResult.TERMINATE;
            }
            try {
              WatchKey key = directory.register(service, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
              directories.put(key, directory);
            } catch (NoSuchFileException | ClosedWatchServiceException e) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            if (reportFiles && !directory.equals(start)) {
              report(new TreeChange(directory, TreeChange.Kind.CREATED));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (reportFiles) {
              report(new TreeChange(file, TreeChange.Kind.CREATED));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException failure) {
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private void report(TreeChange change) {
    try {
      listener.accept(change);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "a change listener failed: " + e, e);
    }
  }

  private static TreeChange.Kind kindOf(WatchEvent.Kind<?> kind) {
    if (kind == ENTRY_CREATE) {
      return TreeChange.Kind.CREATED;
    }
    if (kind == ENTRY_DELETE) {
      return TreeChange.Kind.DELETED;
    }
    return TreeChange.Kind.MODIFIED;
  }

  @Override
  public void close() {
    closed = true;
    try {
      service.close();
    } catch (IOException e) {
      LOG.log(Level.FINE, "closing the watch service failed: " + e.getMessage());
    }
    thread.interrupt();
  }
}
