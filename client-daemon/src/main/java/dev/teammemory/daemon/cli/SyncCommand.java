package dev.teammemory.daemon.cli;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.ProjectOptions;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.sync.ConflictWords;
import dev.teammemory.daemon.sync.Display;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.PullOutcome;
import dev.teammemory.daemon.sync.PushOutcome;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.sync.SyncReport;
import dev.teammemory.daemon.sync.SyncSettings;
import dev.teammemory.daemon.sync.SyncState;
import dev.teammemory.daemon.sync.SyncTarget;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tmem sync}: one pull and one push now, for every project (or the one named). */
@Command(
    name = "sync",
    mixinStandardHelpOptions = true,
    description = {
      "Pulls and pushes team memory once, now, and exits.",
      "Exit status: 0 synced (or a running daemon syncs it); 1 a pull or push failed or a file"
          + " could not sync; 2 usage or configuration."
    })
public final class SyncCommand implements Callable<Integer> {

  @Spec CommandSpec spec;
  @Mixin ProjectOptions projects;

  @Override
  public Integer call() throws IOException {
    Map<String, String> environment = System.getenv();
    Path stateHome = StateHome.of(environment);
    List<Project> selected = projects.select(stateHome);
    ServerConnection server = ServerConnection.fromEnvironment(environment);
    ServerConnection connection = server.requireToken();
    SecretGuard guard = new SecretGuard(SecretScanner.defaultRules());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean allGood = true;
    try (TeamMemoryClient client = connection.client()) {
      for (Project project : selected) {
        SyncTarget target = SyncTarget.of(connection.serverUrl(), project, stateHome);
        SyncReport report;
        try (SyncEngine engine =
            SyncEngine.open(target, client, connection.tokens(), guard, SyncSettings.defaults())) {
          report = engine.syncOnce();
        } catch (SyncEngine.AlreadySyncing busy) {
          // A running daemon syncs this folder: nothing to do here, and nothing failed.
          out.println(target.repo() + " (" + target.teamDir() + "): " + busy.getMessage());
          continue;
        }
        allGood &= print(target, report, out, err);
      }
    }
    return allGood ? ExitCode.OK : ExitCode.PROBLEM;
  }

  /** Prints what happened; true when nothing needs the user's attention. */
  public static boolean print(
      SyncTarget target, SyncReport report, PrintWriter out, PrintWriter err) {
    StringBuilder line =
        new StringBuilder(target.repo()).append(" (").append(target.teamDir()).append("): ");
    line.append(
        switch (report.pull()) {
          case PullOutcome.Pulled pulled ->
              "pulled (" + pulled.written() + " written, " + pulled.deleted() + " deleted)";
          case PullOutcome.Unchanged unchanged -> "up to date";
          case PullOutcome.Offline offline -> "pull failed";
          case PullOutcome.NoAccess noAccess -> "pull refused";
          case PullOutcome.Failed failed -> "pull failed";
        });
    line.append(", ");
    line.append(
        switch (report.push()) {
          case PushOutcome.Pushed pushed ->
              "pushed " + pushed.keys() + " file(s) in " + pushed.batches() + " batch(es)";
          case PushOutcome.NothingToPush nothing -> "nothing to push";
          case PushOutcome.Conflict conflict -> "push failed";
          case PushOutcome.Offline offline -> "push failed";
          case PushOutcome.Rejected rejected -> "push refused";
          case PushOutcome.NoAccess noAccess -> "push refused";
        });
    out.println(line);
    SyncState state = report.state();
    state
        .skipped()
        .forEach(
            (key, skip) ->
                out.println("  not synced: " + Display.key(key) + " — " + skip.inWords()));
    state
        .refusedKeys()
        .forEach(
            (key, reason) ->
                out.println("  refused from the server: " + Display.key(key) + " — " + reason));
    state
        .conflicts()
        .forEach(conflict -> out.println("  conflict: " + ConflictWords.of(state, conflict)));
    boolean good = report.succeeded() && state.skipped().isEmpty() && state.refusedKeys().isEmpty();
    String failure =
        switch (report.pull()) {
          case PullOutcome.Offline offline ->
              "cannot reach "
                  + target.serverUrl()
                  + ": "
                  + offline.reason()
                  + "; check the server and your network, then run `tmem sync` again";
          case PullOutcome.NoAccess noAccess -> noAccess.reason();
          case PullOutcome.Failed failed -> failed.reason();
          default -> null;
        };
    if (failure == null) {
      failure =
          switch (report.push()) {
            case PushOutcome.Offline offline ->
                "cannot reach "
                    + target.serverUrl()
                    + ": "
                    + offline.reason()
                    + "; your changes stay pending, run `tmem sync` again later";
            case PushOutcome.NoAccess noAccess -> noAccess.reason();
            case PushOutcome.Rejected rejected -> rejected.reason();
            case PushOutcome.Conflict conflict -> conflict.reason();
            default -> null;
          };
    }
    if (failure != null) {
      err.println("tmem: sync of " + target.repo() + " failed: " + failure);
    }
    return good;
  }
}
