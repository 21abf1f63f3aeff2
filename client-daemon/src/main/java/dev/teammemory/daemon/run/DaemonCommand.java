package dev.teammemory.daemon.run;

import dev.teammemory.daemon.api.LocalApi;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.LogFormat;
import dev.teammemory.daemon.command.ProjectOptions;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.dream.DreamScheduler;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.sync.SyncSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
      "Keeps team memory in sync, in the foreground: pull at start, push 2 s after the last"
          + " change, follow teammates' changes.",
      "Also keeps session notes current and consolidates each checkout's memory when due (tmem"
          + " dream). Logs to stderr and <state home>/daemon.log (TMEM_LOG_FORMAT=json: one JSON"
          + " object a line). Stop with SIGTERM or Ctrl-C."
    })
public final class DaemonCommand implements Callable<Integer> {

  private static final Logger LOG = Logger.getLogger(DaemonCommand.class.getName());

  @Spec CommandSpec spec;
  @Mixin ProjectOptions projects;

  @Override
  public Integer call() throws IOException, InterruptedException {
    Environment system = Environment.system();
    Map<String, String> environment = system.variables();
    Path stateHome = StateHome.of(system);
    List<Project> selected = projects.select(stateHome);
    ServerConnection server = ServerConnection.fromEnvironment(environment);
    ServerConnection connection = server.requireToken();
    LanguageModel model;
    try {
      model = LanguageModel.fromEnvironment(environment);
    } catch (IllegalArgumentException misconfigured) {
      throw UserError.usage(misconfigured.getMessage() + "; fix the variable or unset it");
    }
    Path logFile =
        DaemonLog.install(
            stateHome, LogFormat.fromEnvironment(environment), spec.commandLine().getErr());
    Daemon daemon;
    try {
      daemon =
          Daemon.open(
              system,
              selected,
              connection,
              model,
              SyncSettings.defaults(),
              DreamScheduler.CHECK_INTERVAL);
    } catch (SyncEngine.AlreadySyncing busy) {
      throw UserError.problem(busy.getMessage());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Optional<LocalApi> api = serveLocalApi(system);
    Runnable stop =
        () -> {
          api.ifPresent(LocalApi::close);
          daemon.close();
          stopped.countDown();
        };
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
    daemon.start();
    // The pull at start holds the whole repository in memory at once; one full collection
    // afterwards lets the JVM hand that memory back, so an idle daemon stays small.
    daemon.whenStarted().thenRun(System::gc);
    LOG.info(
        "tmem daemon (pid "
            + ProcessHandle.current().pid()
            + ") serving "
            + daemon.projectCount()
            + " project(s); log file "
            + logFile);
    stopped.await();
    return ExitCode.OK;
  }

  /**
   * The local API, so that the hook shim gets its answers from this running process instead of
   * starting a JVM per hook. Without it the daemon still syncs, and the shim runs tmem itself.
   */
  private static Optional<LocalApi> serveLocalApi(Environment system) {
    try {
      LocalApi api = LocalApi.serve(system, Clock.systemDefaultZone(), 0);
      LOG.info("local API and hooks on " + api.url());
      return Optional.of(api);
    } catch (IOException | RuntimeException failed) {
      LOG.warning(
          "the local API did not start ("
              + FailureWords.describe(failed)
              + "); hooks start tmem themselves");
      return Optional.empty();
    }
  }
}
