package dev.teammemory.daemon.run;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.dream.DreamScheduler;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.notes.NotesOutcome;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.notes.TranscriptWatcher;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.sync.SyncSettings;
import dev.teammemory.daemon.sync.SyncTarget;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The daemon's parts, wired: one sync engine per project, the watcher that keeps session notes
 * current, and the consolidation scheduler (threads in docs/daemon.md). {@link #start()} starts
 * them; {@link #close()} pushes pending changes and stops them, once. {@code tmem daemon} runs one
 * until a signal; tests run one in-process.
 */
public final class Daemon implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(Daemon.class.getName());

  private final List<Project> projects;
  private final TeamMemoryClient client;
  private final List<SyncEngine> engines;
  private final TranscriptWatcher sessionNotes;
  private final DreamScheduler dreams;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Daemon(
      List<Project> projects,
      TeamMemoryClient client,
      List<SyncEngine> engines,
      TranscriptWatcher sessionNotes,
      DreamScheduler dreams) {
    this.projects = List.copyOf(projects);
    this.client = client;
    this.engines = List.copyOf(engines);
    this.sessionNotes = sessionNotes;
    this.dreams = dreams;
  }

  /**
   * Opens every project (taking its lock and loading its state) without starting anything.
   *
   * @param environment the daemon's environment: its config home, state home and variables
   * @param dreamInterval how often each checkout's memory is asked whether consolidation is due
   * @throws SyncEngine.AlreadySyncing when another process syncs one of the projects
   */
  public static Daemon open(
      Environment environment,
      List<Project> projects,
      ServerConnection connection,
      LanguageModel model,
      SyncSettings settings,
      Duration dreamInterval)
      throws IOException {
    requireNonNull(environment, "environment is null");
    requireNonNull(connection, "connection is null");
    requireNonNull(model, "model is null");
    requireNonNull(settings, "settings is null");
    Path stateHome = StateHome.of(environment);
    SecretGuard guard = new SecretGuard(SecretScanner.defaultRules());
    TeamMemoryClient client = connection.client();
    DreamScheduler dreams =
        new DreamScheduler(
            checkouts(projects).stream().map(environment::withWorkingDirectory).toList(),
            model,
            guard,
            Clock.systemDefaultZone(),
            dreamInterval);
    List<SyncEngine> engines = new ArrayList<>();
    try {
      for (Project project : projects) {
        engines.add(
            SyncEngine.open(
                SyncTarget.of(connection.serverUrl(), project, stateHome),
                client,
                connection.tokens(),
                guard,
                settings));
      }
    } catch (RuntimeException | IOException e) {
      engines.forEach(SyncEngine::close);
      dreams.close();
      client.close();
      throw e;
    }
    return new Daemon(projects, client, engines, sessionNotesWatcher(environment, model), dreams);
  }

  /** Starts syncing, watching transcripts and scheduling consolidation. */
  public void start() throws IOException {
    for (SyncEngine engine : engines) {
      engine.start();
    }
    sessionNotes.start();
    dreams.start();
    logConsolidation();
  }

  /** Completes when every project's first pull and push are done. */
  public CompletableFuture<Void> whenStarted() {
    return CompletableFuture.allOf(
        engines.stream().map(SyncEngine::whenStarted).toArray(CompletableFuture[]::new));
  }

  public int projectCount() {
    return engines.size();
  }

  /** Pushes pending changes and stops every part; later calls do nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LOG.info("stopping: flushing pending changes");
    engines.forEach(SyncEngine::close);
    try {
      sessionNotes.close();
    } catch (IOException e) {
      LOG.warning("could not stop watching transcripts: " + e.getMessage());
    }
    dreams.close();
    client.close();
    LOG.info("stopped");
  }

  /**
   * Keeps the agent's session notes current as its transcripts grow under the config home, with the
   * model when a key is set and offline otherwise.
   */
  private static TranscriptWatcher sessionNotesWatcher(
      Environment environment, LanguageModel model) {
    ClaudeLayout layout = ClaudeLayout.of(environment);
    SessionNotes notes = new SessionNotes(layout, model, Clock.systemUTC());
    return new TranscriptWatcher(
        layout, notes, TranscriptWatcher.QUIET_PERIOD, Daemon::logNotesOutcome);
  }

  /**
   * The checkouts whose memory the daemon consolidates: a project's settings, daily-log mode and
   * transcripts are found from its checkout, so a folder served without one is left to the Stop
   * hook and {@code tmem dream}.
   */
  private static List<Path> checkouts(List<Project> projects) {
    return projects.stream().flatMap(project -> project.checkout().stream()).distinct().toList();
  }

  private void logConsolidation() {
    List<Path> checkouts = checkouts(projects);
    if (!checkouts.isEmpty()) {
      LOG.info(
          "dream: checking whether consolidation is due every "
              + DreamScheduler.CHECK_INTERVAL.toMinutes()
              + " min for "
              + checkouts.size()
              + " checkout(s)");
    }
    projects.stream()
        .filter(project -> project.checkout().isEmpty())
        .forEach(
            project ->
                LOG.info(
                    "dream: "
                        + project.teamDir()
                        + " is served without a checkout, so the daemon does not consolidate its"
                        + " memory; the Stop hook and tmem dream still do"));
  }

  private static void logNotesOutcome(NotesOutcome outcome) {
    switch (outcome) {
      case NotesOutcome.Updated updated ->
          LOG.info("session notes updated: " + updated.notes() + " (" + updated.writer() + ")");
      case NotesOutcome.Failed failed ->
          LOG.warning("session notes not updated: " + failed.notes() + ": " + failed.reason());
      case NotesOutcome.NotDue notDue -> {}
      case NotesOutcome.Busy busy -> {}
    }
  }
}
