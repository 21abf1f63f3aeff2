package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.memory.ClaudeLayout;
import io.methvin.watcher.DirectoryChangeEvent;
import io.methvin.watcher.DirectoryWatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Keeps session notes current while the agent works: watches {@code <config home>/projects/} for
 * transcripts ({@code <project>/<session id>.jsonl}) that grow, waits until one has been quiet for
 * a moment, and asks {@link SessionNotes} to update its notes (the thresholds decide whether that
 * writes anything). Updates run one at a time on one worker thread; transcripts that existed before
 * {@link #start()} are only looked at once they grow. Sub-agent transcripts, deeper in the tree,
 * are not the session's and are ignored.
 *
 * <p>Threads: one watches the directory tree and only schedules; one worker reads transcripts and
 * writes notes. Neither blocks the caller; {@link #close()} waits for an update in progress.
 */
public final class TranscriptWatcher implements AutoCloseable {

  /**
   * The quiet period the daemon should use: the agent appends several lines per turn in quick
   * succession, and reading between them would only see a turn half written.
   */
  public static final Duration QUIET_PERIOD = Duration.ofSeconds(2);

  private final Path projects;
  private final SessionNotes notes;
  private final Duration quietPeriod;
  private final Consumer<NotesOutcome> listener;
  private final Map<Path, Long> sizes = new ConcurrentHashMap<>();
  private final Map<Path, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();
  private final ScheduledExecutorService worker =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> daemonThread(runnable, "tmem-session-notes"));
  private final ExecutorService watching =
      Executors.newSingleThreadExecutor(
          runnable -> daemonThread(runnable, "tmem-transcript-watcher"));
  private DirectoryWatcher watcher;

  /** The projects folder with symbolic links resolved, as the watcher reports paths. */
  private volatile Path realProjects;

  /**
   * @param quietPeriod how long a transcript must stay unchanged before its notes are considered
   * @param listener told the outcome of every update attempt, for status and logs
   */
  public TranscriptWatcher(
      ClaudeLayout layout,
      SessionNotes notes,
      Duration quietPeriod,
      Consumer<NotesOutcome> listener) {
    this.projects = requireNonNull(layout, "layout is null").projectsDirectory();
    this.notes = requireNonNull(notes, "notes is null");
    this.quietPeriod = requireNonNull(quietPeriod, "quietPeriod is null");
    this.listener = requireNonNull(listener, "listener is null");
    if (quietPeriod.isNegative()) {
      throw new IllegalArgumentException("quietPeriod must not be negative: " + quietPeriod);
    }
  }

  /** Starts watching; the projects folder is created if the agent has not made it yet. */
  public synchronized void start() throws IOException {
    if (watcher != null) {
      throw new IllegalStateException("the watcher is already started");
    }
    Files.createDirectories(projects);
    realProjects = projects.toRealPath();
    try (Stream<Path> existing = transcripts()) {
      existing.forEach(file -> sizes.put(file, size(file)));
    }
    watcher =
        DirectoryWatcher.builder()
            .path(projects)
            .fileHashing(false)
            .listener(this::onEvent)
            .build();
    watcher.watchAsync(watching);
  }

  /**
   * Looks at every transcript once and schedules those that grew: what the watcher does after a
   * lost event, and what a periodic timer may call.
   */
  public void scan() throws IOException {
    try (Stream<Path> all = transcripts()) {
      all.forEach(this::schedule);
    } catch (UncheckedIOException failure) {
      throw failure.getCause();
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (watcher != null) {
      watcher.close();
    }
    watching.shutdownNow();
    worker.shutdown();
    try {
      if (!worker.awaitTermination(30, TimeUnit.SECONDS)) {
        worker.shutdownNow();
      }
    } catch (InterruptedException interrupted) {
      worker.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private void onEvent(DirectoryChangeEvent event) throws IOException {
    switch (event.eventType()) {
      case CREATE, MODIFY -> {
        if (isTranscript(event.path())) {
          schedule(event.path());
        }
      }
      case OVERFLOW -> scan();
      default -> {
        // Deleted transcripts have nothing left to summarise.
      }
    }
  }

  private void schedule(Path transcript) {
    if (worker.isShutdown()) {
      return;
    }
    pending.compute(
        transcript,
        (file, previous) -> {
          if (previous != null) {
            previous.cancel(false);
          }
          return worker.schedule(
              () -> process(file), quietPeriod.toMillis(), TimeUnit.MILLISECONDS);
        });
  }

  private void process(Path transcript) {
    pending.remove(transcript);
    long size = size(transcript);
    Long known = sizes.get(transcript);
    if (size < 0 || (known != null && size <= known)) {
      return;
    }
    sizes.put(transcript, size);
    Path notesFile;
    try {
      notesFile = ClaudeLayout.sessionNotesBeside(transcript);
    } catch (IllegalArgumentException notASessionFile) {
      return;
    }
    NotesOutcome outcome;
    try {
      outcome = notes.update(transcript, notesFile, false);
    } catch (IOException | RuntimeException failure) {
      outcome = new NotesOutcome.Failed(notesFile, FailureWords.describe(failure));
    }
    listener.accept(outcome);
  }

  private boolean isTranscript(Path file) {
    Path parent = file.getParent();
    if (!file.getFileName().toString().endsWith(".jsonl") || parent == null) {
      return false;
    }
    Path grandparent = parent.getParent();
    return projects.equals(grandparent)
        || (realProjects != null && realProjects.equals(grandparent));
  }

  private Stream<Path> transcripts() throws IOException {
    return Files.find(
        projects, 2, (file, attributes) -> attributes.isRegularFile() && isTranscript(file));
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (NoSuchFileException gone) {
      return -1;
    } catch (IOException unreadable) {
      return -1;
    }
  }

  private static Thread daemonThread(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }
}
