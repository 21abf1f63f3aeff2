package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Consolidation while the daemon runs: every interval one background thread asks each project's
 * memory whether consolidation is due, through the same gates, cheapest first, that the Stop hook
 * asks after a turn ({@link Dream.Request#automatic}), and consolidates when they open, with the
 * model when there is one and offline otherwise. Each phase and the outcome go to the daemon's log;
 * its lines name phases, counts, the writer and the memory directory, never what a memory says.
 *
 * <p>Threads: one, {@code tmem-dream}. A consolidation by a model can keep it busy for minutes;
 * nothing waits on it. {@link #close()} asks a running consolidation to stop at its next phase,
 * which rolls the lock back, and waits for it.
 */
public final class DreamScheduler implements AutoCloseable {

  /** How often the daemon asks: as often as the session gate lets it count sessions. */
  public static final Duration CHECK_INTERVAL =
      Duration.ofMinutes(DreamGates.SCAN_INTERVAL_MINUTES);

  /** The first check waits this long (at most), so that the daemon's start settles first. */
  private static final Duration FIRST_CHECK = Duration.ofMinutes(1);

  /** How long {@link #close()} waits for a consolidation to reach its next phase. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private static final Logger LOG = Logger.getLogger(DreamScheduler.class.getName());

  private final List<Environment> projects;
  private final LanguageModel model;
  private final SecretGuard guard;
  private final Clock clock;
  private final Duration interval;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "tmem-dream");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * @param projects one environment per project, its working directory the project's checkout
   * @param interval how often the gates are asked
   */
  public DreamScheduler(
      List<Environment> projects,
      LanguageModel model,
      SecretGuard guard,
      Clock clock,
      Duration interval) {
    this.projects = List.copyOf(projects);
    this.model = requireNonNull(model, "model is null");
    this.guard = requireNonNull(guard, "guard is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.interval = requireNonNull(interval, "interval is null");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive: " + interval);
    }
  }

  /** Starts asking: first after at most a minute, then every interval. */
  public void start() {
    long every = interval.toMillis();
    timer.scheduleWithFixedDelay(
        this::consolidateDue,
        Math.min(every, FIRST_CHECK.toMillis()),
        every,
        TimeUnit.MILLISECONDS);
  }

  /** One pass over the projects: what the timer runs. */
  public void consolidateDue() {
    for (Environment project : projects) {
      if (stopping.get()) {
        return;
      }
      consolidateIfDue(project);
    }
  }

  private void consolidateIfDue(Environment project) {
    Dream.Request request = Dream.Request.automatic(project, Optional.empty(), stopping::get);
    Path memory = request.location().directory();
    String where = " [" + memory + "]";
    Dream dream =
        new Dream(ClaudeLayout.of(project), model, clock, guard, line -> LOG.info(line + where));
    try {
      switch (dream.run(request)) {
        case DreamOutcome.NotDue notDue -> LOG.fine("dream: not due: " + notDue.reason() + where);
        case DreamOutcome.Busy busy ->
            LOG.info(
                "dream: process "
                    + busy.pid()
                    + " has been consolidating since "
                    + busy.since()
                    + "; not run"
                    + where);
        case DreamOutcome.Failed failed ->
            LOG.warning(
                "dream: consolidation failed ("
                    + failed.reason()
                    + "); the lock was rolled back, so the next check tries again"
                    + where);
        // The progress lines have told the log the phases and the outcome.
        case DreamOutcome.Consolidated consolidated -> {}
        case DreamOutcome.Cancelled cancelled -> {}
        case DreamOutcome.Planned planned -> {}
      }
    } catch (IOException | RuntimeException failure) {
      // The timer must survive one project's trouble: a thrown exception would end its schedule.
      // The failure in words, which name a path and the system's reason, never what was read.
      LOG.warning(
          "dream: could not check whether consolidation is due ("
              + FailureWords.describe(failure)
              + ")"
              + where);
    }
  }

  /** Stops asking; a running consolidation stops at its next phase and rolls back. */
  @Override
  public void close() {
    stopping.set(true);
    timer.shutdown();
    try {
      if (!timer.awaitTermination(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        timer.shutdownNow();
      }
    } catch (InterruptedException interrupted) {
      timer.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
