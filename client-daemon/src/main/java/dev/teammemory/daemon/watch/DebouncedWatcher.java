package dev.teammemory.daemon.watch;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Turns a burst of changes into one call: {@code onQuiet} runs once the tree has been quiet for the
 * quiet period after the last change, and every change restarts that timer. It runs on the given
 * scheduler, so a single-threaded scheduler that also runs the pushes makes "one push in flight, a
 * change during a push schedules another" hold by construction.
 */
public final class DebouncedWatcher implements Consumer<TreeChange> {

  private final Duration quietPeriod;
  private final ScheduledExecutorService scheduler;
  private final Consumer<Set<Path>> onQuiet;
  private final Set<Path> changed = new LinkedHashSet<>();
  private ScheduledFuture<?> timer;

  public DebouncedWatcher(
      Duration quietPeriod, ScheduledExecutorService scheduler, Consumer<Set<Path>> onQuiet) {
    if (quietPeriod.isNegative()) {
      throw new IllegalArgumentException("quietPeriod is negative: " + quietPeriod);
    }
    this.quietPeriod = quietPeriod;
    this.scheduler = requireNonNull(scheduler, "scheduler is null");
    this.onQuiet = requireNonNull(onQuiet, "onQuiet is null");
  }

  /** Records a change and restarts the quiet-period timer. */
  @Override
  public synchronized void accept(TreeChange change) {
    changed.add(change.path());
    if (timer != null) {
      timer.cancel(false);
    }
    timer = scheduler.schedule(this::fire, quietPeriod.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** True while changes wait for the quiet period to end. */
  public synchronized boolean hasPendingChanges() {
    return !changed.isEmpty();
  }

  /** Stops the timer and hands back what was waiting, for a flush at shutdown. */
  public synchronized Set<Path> cancel() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
    Set<Path> waiting = Set.copyOf(changed);
    changed.clear();
    return waiting;
  }

  private void fire() {
    Set<Path> batch;
    synchronized (this) {
      if (changed.isEmpty()) {
        return;
      }
      batch = Set.copyOf(changed);
      changed.clear();
    }
    onQuiet.accept(batch);
  }
}
