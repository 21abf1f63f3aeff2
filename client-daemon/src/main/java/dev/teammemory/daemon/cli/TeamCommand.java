package dev.teammemory.daemon.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.ProjectOptions;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.sync.DeleteConfirmation;
import dev.teammemory.daemon.sync.Display;
import dev.teammemory.daemon.sync.KeptCopies;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.SavedProjects;
import dev.teammemory.daemon.sync.SyncState;
import dev.teammemory.daemon.sync.SyncStateStore;
import dev.teammemory.daemon.sync.SyncTarget;
import dev.teammemory.daemon.sync.TeamFolder;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.DeleteResponse;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.Keys;
import dev.teammemory.protocol.PutResponse;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tmem team}: acts on the server's copy of team memory (delete, history, restore). */
@Command(
    name = "team",
    mixinStandardHelpOptions = true,
    description = "Acts on the team's memory on the server: rm, history, restore, confirm-deletes.",
    subcommands = {
      TeamCommand.Remove.class,
      TeamCommand.History.class,
      TeamCommand.Restore.class,
      TeamCommand.ConfirmDeletes.class
    })
public final class TeamCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** What every subcommand needs: the project, a client, and the key checked. */
  abstract static class KeyCommand implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin ProjectOptions projects;

    @Parameters(
        index = "0",
        arity = "0..1",
        paramLabel = "KEY",
        description = "The key: a path under team/, e.g. testing/no-mocks.md")
    String key;

    @Override
    public Integer call() throws IOException {
      Map<String, String> environment = System.getenv();
      if (key == null) {
        throw UserError.usage("a KEY is needed: a path under team/, e.g. testing/no-mocks.md");
      }
      Optional<String> violation = Keys.violation(key);
      if (violation.isPresent()) {
        throw UserError.usage(
            "not a team-memory key: " + Display.key(key) + " (" + violation.get() + ")");
      }
      Project project = project(StateHome.of(environment));
      ServerConnection server = ServerConnection.fromEnvironment(environment);
      ServerConnection connection = server.requireToken();
      try (TeamMemoryClient client = connection.client()) {
        return run(project, client, spec.commandLine().getOut());
      }
    }

    abstract int run(Project project, TeamMemoryClient client, PrintWriter out) throws IOException;

    UserError failure(String action, Project project, Response<?> response) {
      String why =
          switch (response) {
            case Response.Unauthorized<?> unauthorized ->
                "the server rejected the token (401): run `tmem login` or set TMEM_TOKEN";
            case Response.Rejected<?> rejected ->
                rejected.status() == 403
                    ? "no write access to " + project.repo() + " (403)"
                    : "the server refused it ("
                        + rejected.status()
                        + rejected
                            .error()
                            .flatMap(ErrorEnvelope::errorCode)
                            .map(code -> " " + code)
                            .orElse("")
                        + ")";
            case Response.TransportFailure<?> failure ->
                "cannot reach the server: " + failure.reason() + "; try again later";
            case Response.NotFound<?> notFound ->
                project.repo() + " does not exist on the server or you cannot see it (404)";
            default -> "the server gave an answer this command does not expect";
          };
      return UserError.problem(
          "could not " + action + " " + Display.key(key) + " in " + project.repo() + ": " + why);
    }

    /**
     * The named project, else the registered one containing the current folder, else the only one.
     */
    Project project(Path stateHome) {
      List<Project> candidates = projects.select(stateHome);
      if (candidates.size() == 1) {
        return candidates.get(0);
      }
      Path here = Path.of("").toAbsolutePath();
      for (Project candidate : candidates) {
        if (here.startsWith(candidate.teamDir())
            || candidate.checkout().map(here::startsWith).orElse(false)) {
          return candidate;
        }
      }
      throw UserError.usage(
          "several projects are registered and the current folder is in none of them: pass --repo owner/name --team-dir DIR");
    }
  }

  /** {@code tmem team rm KEY}: deletes the key on the server (the delete extension). */
  @Command(
      name = "rm",
      mixinStandardHelpOptions = true,
      description =
          "Deletes KEY on the server. Every daemon then deletes its local copy unless it was"
              + " modified there (it reports that instead). The content stays in the server's"
              + " history.")
  static final class Remove extends KeyCommand {
    @Override
    int run(Project project, TeamMemoryClient client, PrintWriter out) throws IOException {
      Response<DeleteResponse> response = client.delete(project.repo(), key, Optional.empty());
      switch (response) {
        case Response.Ok<DeleteResponse> ok -> {
          out.println(
              "deleted "
                  + Display.key(key)
                  + " from "
                  + project.repo()
                  + " (repository version "
                  + ok.body().version()
                  + "); it stays in the history: tmem team history "
                  + Display.key(key));
          removeLocalCopy(project, client, out);
          return ExitCode.OK;
        }
        case Response.NotFound<DeleteResponse> notFound ->
            throw UserError.problem(
                Display.key(key)
                    + " is not in "
                    + project.repo()
                    + " on the server (or you cannot see the repository)");
        default -> throw failure("delete", project, response);
      }
    }

    private void removeLocalCopy(Project project, TeamMemoryClient client, PrintWriter out)
        throws IOException {
      TeamFolder folder = new TeamFolder(project.teamDir());
      String local = folder.checksumNow(key);
      if (local == null) {
        return;
      }
      String deleted = null;
      if (client.fetchHashes(project.repo()) instanceof Response.Ok<HashesView> hashes) {
        deleted = hashes.body().deletedKeys().get(key);
      }
      if (local.equals(deleted) && folder.deleteIfUnchanged(key, local)) {
        out.println("deleted the local copy " + project.teamDir().resolve(key));
      } else {
        out.println(
            "kept the local copy "
                + project.teamDir().resolve(key)
                + ": it differs from what the server had; delete it yourself (an edit would push it again)");
      }
    }
  }

  /** {@code tmem team history KEY}: the versions the server keeps. */
  @Command(
      name = "history",
      mixinStandardHelpOptions = true,
      description = "Lists the versions of KEY the server keeps, newest first.")
  static final class History extends KeyCommand {
    @Override
    int run(Project project, TeamMemoryClient client, PrintWriter out) {
      Response<EntryHistory> response =
          eachPage(
              client,
              project.repo(),
              key,
              page -> {
                for (EntryHistory.Version version : page.versions()) {
                  out.println(
                      "version "
                          + version.version()
                          + "  "
                          + version.at()
                          + "  "
                          + version.author()
                          + "  "
                          + version.checksum().substring(0, 19)
                          + (version.deleted() ? "  (deleted)" : ""));
                }
                return true;
              });
      if (response instanceof Response.Ok<EntryHistory>) {
        out.println("restore one with: tmem team restore " + Display.key(key) + " --version N");
        return ExitCode.OK;
      }
      if (response instanceof Response.NotFound<EntryHistory>) {
        throw UserError.problem(
            "the server keeps no history of " + Display.key(key) + " in " + project.repo());
      }
      throw failure("read the history of", project, response);
    }
  }

  /**
   * {@code tmem team restore}: without arguments lists the copies the daemon kept before the server
   * replaced or deleted a file; {@code KEY} brings back the newest kept copy of a file, {@code
   * --sync WHEN} every file kept in one sync; {@code KEY --version N} puts an old version back from
   * the server's history, here and on the server. A local file that a restore replaces is kept
   * first in turn.
   */
  @Command(
      name = "restore",
      description = {
        "Brings back what the daemon kept, or an old version from the server.",
        "  tmem team restore                 lists the copies kept before the server replaced or"
            + " deleted a file",
        "  tmem team restore KEY             brings back the newest kept copy of KEY",
        "  tmem team restore --sync WHEN     brings back every file kept in that sync",
        "  tmem team restore KEY --version N makes version N of KEY current again on the server"
            + " and here"
      })
  static final class Restore extends KeyCommand {
    // Its own --version takes the standard -V/--version's name, and with it the standard --help.
    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "Show this help message and exit.")
    boolean help;

    @Option(
        names = "--version",
        paramLabel = "N",
        description = "The version on the server (see tmem team history KEY).")
    Long version;

    @Option(
        names = "--sync",
        paramLabel = "WHEN",
        description = "The sync whose kept copies to bring back (as the list names it).")
    String sync;

    @Override
    public Integer call() throws IOException {
      if (version != null) {
        return super.call();
      }
      Environment environment = Environment.system();
      Path stateHome = StateHome.of(environment);
      Project project = project(stateHome);
      String serverUrl = ServerConnection.fromEnvironment(environment.variables()).serverUrl();
      KeptCopies kept =
          KeptCopies.of(
              SyncTarget.of(serverUrl, project, stateHome).stateDir(), environment.variables());
      PrintWriter out = spec.commandLine().getOut();
      List<KeptCopies.Kept> copies = kept.list();
      if (key == null && sync == null) {
        if (copies.isEmpty()) {
          out.println(project.repo() + ": no kept copies");
          return ExitCode.OK;
        }
        out.println(project.repo() + ": copies kept before the server replaced or deleted them");
        for (KeptCopies.Kept copy : copies) {
          out.println(
              "  "
                  + copy.when()
                  + "  "
                  + Display.key(copy.key())
                  + "  ("
                  + copy.bytes()
                  + " bytes)");
        }
        out.println(
            "bring one back with `tmem team restore KEY [--sync WHEN]`, a whole sync with"
                + " `tmem team restore --sync WHEN`");
        return ExitCode.OK;
      }
      List<KeptCopies.Kept> chosen = new ArrayList<>();
      for (KeptCopies.Kept copy : copies) {
        boolean keyMatches = key == null || copy.key().equals(key);
        boolean syncMatches = sync == null || copy.when().equals(sync.replace(':', '-'));
        boolean first = chosen.stream().noneMatch(c -> c.key().equals(copy.key()));
        if (keyMatches && syncMatches && first) {
          chosen.add(copy); // newest first: the newest copy of each key
        }
      }
      if (chosen.isEmpty()) {
        throw UserError.problem(
            "no kept copy of "
                + (key == null ? "any file" : Display.key(key))
                + (sync == null ? "" : " in the sync " + sync)
                + ": see tmem team restore");
      }
      TeamFolder folder = new TeamFolder(project.teamDir());
      String now = Instant.now().toString();
      for (KeptCopies.Kept copy : chosen) {
        byte[] bytes = Files.readAllBytes(copy.file());
        if (!Checksums.isValidUtf8(bytes)) {
          out.println("not restored " + Display.key(copy.key()) + ": not UTF-8");
          continue;
        }
        keepLocal(folder, kept, copy.key(), bytes, now);
        Optional<String> refusal = folder.write(copy.key(), new String(bytes, UTF_8));
        out.println(
            refusal
                .map(reason -> "not restored " + Display.key(copy.key()) + ": " + reason)
                .orElse(
                    "restored "
                        + Display.key(copy.key())
                        + " as kept at "
                        + copy.when()
                        + " in "
                        + project.teamDir()));
      }
      out.println("a running daemon sends the restored files as local edits");
      return ExitCode.OK;
    }

    @Override
    int run(Project project, TeamMemoryClient client, PrintWriter out) throws IOException {
      List<EntryHistory.Version> found = new ArrayList<>();
      Response<EntryHistory> history =
          eachPage(
              client,
              project.repo(),
              key,
              page -> {
                page.versions().stream()
                    .filter(v -> v.version() == version && !v.deleted())
                    .findFirst()
                    .ifPresent(found::add);
                // Pages go from newest to oldest: past N, no later page holds it.
                return found.isEmpty()
                    && page.versions().stream().allMatch(v -> v.version() > version);
              });
      if (!(history instanceof Response.Ok<EntryHistory>)) {
        throw failure("read the history of", project, history);
      }
      EntryHistory.Version wanted =
          found.stream()
              .findFirst()
              .orElseThrow(
                  () ->
                      UserError.problem(
                          "the server keeps no version "
                              + version
                              + " of "
                              + Display.key(key)
                              + ": see tmem team history "
                              + Display.key(key)));
      if (!Checksums.ofContent(wanted.content()).equals(wanted.checksum())) {
        throw UserError.problem(
            "version "
                + version
                + " of "
                + Display.key(key)
                + " does not match its checksum; not restoring it");
      }
      Response<PutResponse> put =
          client.put(project.repo(), Map.of(key, wanted.content()), Optional.empty());
      if (!(put instanceof Response.Ok<PutResponse>)) {
        throw failure("restore", project, put);
      }
      Environment environment = Environment.system();
      Path stateHome = StateHome.of(environment);
      String serverUrl = ServerConnection.fromEnvironment(environment.variables()).serverUrl();
      KeptCopies kept =
          KeptCopies.of(
              SyncTarget.of(serverUrl, project, stateHome).stateDir(), environment.variables());
      TeamFolder folder = new TeamFolder(project.teamDir());
      keepLocal(folder, kept, key, wanted.content().getBytes(UTF_8), Instant.now().toString());
      Optional<String> refusal = folder.write(key, wanted.content());
      out.println(
          "restored version "
              + version
              + " of "
              + Display.key(key)
              + " ("
              + wanted.author()
              + ", "
              + wanted.at()
              + ") on the server"
              + refusal
                  .map(reason -> "; not written locally: " + reason)
                  .orElse(" and in " + project.teamDir()));
      return ExitCode.OK;
    }

    /** Keeps the local file a restore is about to replace, unless it already has those bytes. */
    private static void keepLocal(
        TeamFolder folder, KeptCopies kept, String key, byte[] replacement, String now)
        throws IOException {
      Optional<byte[]> local = folder.localBytes(key);
      if (local.isPresent() && !java.util.Arrays.equals(local.get(), replacement)) {
        kept.keep(key, local.get(), now);
      }
    }
  }

  /** The most pages of one key's history read: far beyond what the server keeps of a key. */
  private static final int MAX_HISTORY_PAGES = 1000;

  /**
   * Reads KEY's history page by page, newest first, handing each to {@code more} until it says stop
   * or no page is left; the answer is the last page's, or the first failure.
   */
  private static Response<EntryHistory> eachPage(
      TeamMemoryClient client, String repo, String key, Predicate<EntryHistory> more) {
    Optional<String> page = Optional.empty();
    for (int read = 0; ; read++) {
      Response<EntryHistory> response = client.history(repo, key, page);
      if (!(response instanceof Response.Ok<EntryHistory> ok)
          || !more.test(ok.body())
          || ok.body().next().isEmpty()
          || ok.body().next().equals(page)
          || read == MAX_HISTORY_PAGES) {
        return response;
      }
      page = ok.body().next();
    }
  }

  /**
   * {@code tmem team confirm-deletes}: releases the delete hold (the folder vanished or emptied, or
   * many files went at once) so that the held deletes reach the server.
   */
  @Command(
      name = "confirm-deletes",
      mixinStandardHelpOptions = true,
      description = {
        "Releases the deletes the daemon holds, so that they reach the server.",
        "The daemon deletes nothing on the server while the team folder is missing or empty, or"
            + " after more than a tenth (at least 5) of the synced files vanished together;"
            + " tmem status shows the held files."
      })
  public static final class ConfirmDeletes implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin ProjectOptions projects;
    private final Environment environment;

    public ConfirmDeletes() {
      this(Environment.system());
    }

    public ConfirmDeletes(Environment environment) {
      this.environment = environment;
    }

    @Override
    public Integer call() throws IOException {
      Path stateHome = StateHome.of(environment);
      String serverUrl = ServerConnection.fromEnvironment(environment.variables()).serverUrl();
      PrintWriter out = spec.commandLine().getOut();
      for (Project project : projects.select(stateHome)) {
        SyncTarget target = SyncTarget.of(serverUrl, project, stateHome);
        Optional<SyncState.DeleteHold> hold =
            new SyncStateStore(target.stateDir()).read().flatMap(SyncState::heldDeletes);
        if (hold.isEmpty()) {
          out.println(project.repo() + ": no deletes are held");
          continue;
        }
        DeleteConfirmation.request(target.stateDir());
        out.println(
            project.repo()
                + ": confirmed "
                + hold.get().keys().size()
                + " delete(s); "
                + (SavedProjects.runningPid(target.stateDir()).isPresent()
                    ? "the daemon sends them at its next scan"
                    : "they go out at the next `tmem sync` or daemon start"));
      }
      return ExitCode.OK;
    }
  }
}
