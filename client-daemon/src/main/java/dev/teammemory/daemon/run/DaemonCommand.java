package dev.teammemory.daemon.run;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.ProjectOptions;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.dream.DreamScheduler;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.login.StoredLogin;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/**
 * {@code tmem daemon}: serves every registered project (or the one named) in the foreground until
 * SIGTERM or Ctrl-C, which flush pending changes before the process ends.
 */
@Command(
    name = "daemon",
    mixinStandardHelpOptions = true,
    subcommands = {
      dev.teammemory.daemon.install.DaemonInstallCommand.class,
      dev.teammemory.daemon.install.DaemonUninstallCommand.class
    },
    description = {
      "Keeps team memory in sync, in the foreground: pull at start, push 2 s after the last change,",
      "follow teammates' changes. Also keeps session notes current and consolidates each checkout's",
      "memory when due (tmem dream). Logs to stderr and <state home>/daemon.log. Stop with SIGTERM or Ctrl-C."
    })
public final class DaemonCommand implements Callable<Integer> {

  private static final Logger LOG = Logger.getLogger(DaemonCommand.class.getName());

  @Spec CommandSpec spec;
  @Mixin ProjectOptions projects;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Map<String, String> environment = System.getenv();
    Path stateHome = StateHome.of(environment);
    List<Project> selected = projects.select(stateHome);
    ServerConnection server = ServerConnection.fromEnvironment(environment);
    ServerConnection connection =
        server.withTokens(StoredLogin.tokens(server.serverUrl(), environment)).requireToken();
    Environment system = Environment.system();
    LanguageModel model;
    try {
      model = LanguageModel.fromEnvironment(system.variables());
    } catch (IllegalArgumentException misconfigured) {
      throw UserError.usage(misconfigured.getMessage() + "; fix the variable or unset it");
    }
    Path logFile = DaemonLog.install(stateHome, spec.commandLine().getErr());
    SecretGuard guard = new SecretGuard(SecretScanner.defaultRules());
    TeamMemoryClient client = connection.client();
    List<SyncEngine> engines = new ArrayList<>();
    TranscriptWatcher sessionNotes = sessionNotesWatcher(system, model);
    DreamScheduler dreams =
        new DreamScheduler(
            checkouts(selected).stream().map(system::withWorkingDirectory).toList(),
            model,
            guard,
            Clock.systemDefaultZone(),
            DreamScheduler.CHECK_INTERVAL);
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicBoolean stopping = new AtomicBoolean();
    Runnable stop =
        () -> {
          if (stopping.compareAndSet(false, true)) {
            LOG.info("stopping: flushing pending changes");
            engines.forEach(SyncEngine::close);
            closeQuietly(sessionNotes);
            dreams.close();
            client.close();
            LOG.info("stopped");
          }
          stopped.countDown();
        };
    try {
      for (Project project : selected) {
        SyncEngine engine =
            SyncEngine.open(
                SyncTarget.of(connection.serverUrl(), project, stateHome),
                client,
                connection.tokens(),
                guard,
                SyncSettings.defaults());
        engines.add(engine);
      }
    } catch (RuntimeException | IOException e) {
      engines.forEach(SyncEngine::close);
      dreams.close();
      client.close();
      if (e instanceof SyncEngine.AlreadySyncing busy) {
        throw UserError.problem(busy.getMessage());
      }
      throw e;
    }
    // SIGTERM and Ctrl-C flush before the JVM starts shutting down, while logging still works
    // (the JDK closes log handlers in a shutdown hook of its own); the hook covers other exits.
    for (String name : List.of("TERM", "INT")) {
      try {
        Signal.handle(new Signal(name), signal -> stop.run());
      } catch (IllegalArgumentException unsupported) {
        // The platform keeps this signal to itself: the shutdown hook flushes instead.
      }
    }
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "tmem-shutdown"));
    for (SyncEngine engine : engines) {
      engine.start();
    }
    sessionNotes.start();
    dreams.start();
    // The pull at start holds the whole repository in memory at once; one full collection
    // afterwards lets the JVM hand that memory back, so an idle daemon stays small.
    CompletableFuture.allOf(
            engines.stream().map(SyncEngine::whenStarted).toArray(CompletableFuture[]::new))
        .thenRun(System::gc);
    LOG.info(
        "tmem daemon (pid "
            + ProcessHandle.current().pid()
            + ") serving "
            + engines.size()
            + " project(s); log file "
            + logFile);
    logConsolidation(selected);
    stopped.await();
    return ExitCode.OK;
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
        layout, notes, TranscriptWatcher.QUIET_PERIOD, DaemonCommand::logNotesOutcome);
  }

  /**
   * The checkouts whose memory the daemon consolidates: a project's settings, daily-log mode and
   * transcripts are found from its checkout, so a folder served without one is left to the Stop
   * hook and {@code tmem dream}.
   */
  private static List<Path> checkouts(List<Project> projects) {
    return projects.stream().flatMap(project -> project.checkout().stream()).distinct().toList();
  }

  private static void logConsolidation(List<Project> projects) {
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

  private static void closeQuietly(TranscriptWatcher watcher) {
    try {
      watcher.close();
    } catch (IOException e) {
      LOG.warning("could not stop watching transcripts: " + e.getMessage());
    }
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
