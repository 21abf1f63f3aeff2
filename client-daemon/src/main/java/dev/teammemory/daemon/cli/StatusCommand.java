package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.OutputFormat;
import dev.teammemory.daemon.command.ProjectOptions;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.LoginStatus;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.sync.ConflictWords;
import dev.teammemory.daemon.sync.Display;
import dev.teammemory.daemon.sync.KeptCopies;
import dev.teammemory.daemon.sync.OwnReviews;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.SavedProjects;
import dev.teammemory.daemon.sync.SyncState;
import dev.teammemory.protocol.ReviewPage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tmem status}: per project, the server, the repository, last pull and push, pending
 * changes, files that do not sync and why, conflicts, and the last error in words.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Shows the team sync of every project (those registered, and folders a running daemon"
            + " serves): what synced, what is pending, what does not sync and why.")
public final class StatusCommand implements Callable<Integer> {

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  @Spec CommandSpec spec;
  @Mixin ProjectOptions projects;

  @Option(
      names = "--format",
      paramLabel = "text|json",
      defaultValue = "text",
      description = "Output format (default: ${DEFAULT-VALUE}).")
  OutputFormat format;

  @Override
  public Integer call() throws IOException {
    Map<String, String> environment = System.getenv();
    Path stateHome = StateHome.of(environment);
    List<LoginStatus> logins = LoginStatus.of(environment, stateHome, Instant.now());
    List<SavedProjects.Saved> saved = SavedProjects.all(stateHome);
    if (format == OutputFormat.text) {
      // First, so that it shows before the usage error of a machine without projects.
      boolean daemonRuns =
          saved.stream().anyMatch(entry -> SavedProjects.runningPid(entry.stateDir()).isPresent());
      for (LoginStatus login : logins) {
        // A daemon started with its own token (as ./tmem demo's) is logged in, whatever this
        // terminal is: "not logged in" would read as the daemon's trouble.
        spec.commandLine()
            .getOut()
            .println(
                daemonRuns && login.source().equals("none")
                    ? "no login in this terminal; the running daemon uses its own token (as"
                        + " `./tmem demo`'s does)"
                    : login.words());
      }
    }
    List<Project> selected;
    List<SavedProjects.Saved> servedUnregistered = List.of();
    if (projects.named()) {
      selected = projects.select(stateHome);
    } else {
      selected = ProjectOptions.registered(stateHome);
      servedUnregistered = servedUnregistered(saved, selected);
      if (selected.isEmpty() && servedUnregistered.isEmpty()) {
        projects.select(stateHome); // the usage error that says how to register one
      }
    }
    List<ProjectStatus> statuses = new ArrayList<>();
    Optional<String> server = configuredServer(environment);
    for (Project project : selected) {
      boolean found = false;
      for (SavedProjects.Saved entry : saved) {
        // A sync with another server than the configured one (a one-off `tmem sync` against a
        // wrong URL) is shown only while a daemon serves it: it is not this project's sync.
        if (Path.of(entry.state().teamDir()).equals(project.teamDir())
            && entry.state().repo().equalsIgnoreCase(project.repo())
            && (server.isEmpty()
                || sameServer(server.get(), entry.state().serverUrl())
                || SavedProjects.runningPid(entry.stateDir()).isPresent())) {
          statuses.add(statusOf(entry));
          found = true;
        }
      }
      if (!found) {
        statuses.add(neverSynced(project));
      }
    }
    servedUnregistered.forEach(entry -> statuses.add(statusOf(entry)));
    PrintWriter out = spec.commandLine().getOut();
    if (format == OutputFormat.json) {
      out.println(toJson(logins, statuses));
    } else {
      statuses.forEach(status -> out.print(text(status)));
    }
    return ExitCode.OK;
  }

  /**
   * Folders a running daemon or sync serves by {@code --team-dir} and {@code --repo} (as {@code
   * ./tmem demo} does), so that a plain {@code tmem status} in another terminal shows them too;
   * once it stops they are left out again, as they are in no registry.
   */
  private static List<SavedProjects.Saved> servedUnregistered(
      List<SavedProjects.Saved> saved, List<Project> registered) {
    return saved.stream()
        .filter(
            entry ->
                registered.stream()
                    .noneMatch(
                        project ->
                            Path.of(entry.state().teamDir()).equals(project.teamDir())
                                && entry.state().repo().equalsIgnoreCase(project.repo())))
        .filter(entry -> SavedProjects.runningPid(entry.stateDir()).isPresent())
        .toList();
  }

  /** The server the commands talk to now, or empty when none is configured. */
  private static Optional<String> configuredServer(Map<String, String> environment) {
    try {
      return Optional.of(ServerConnection.fromEnvironment(environment).serverUrl());
    } catch (RuntimeException none) {
      return Optional.empty();
    }
  }

  private static boolean sameServer(String one, String other) {
    return stripSlash(one).equalsIgnoreCase(stripSlash(other));
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  static String toJson(List<LoginStatus> logins, List<ProjectStatus> statuses)
      throws JsonProcessingException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("logins", logins);
    body.put("projects", statuses);
    return JSON.writeValueAsString(body);
  }

  static ProjectStatus statusOf(SavedProjects.Saved saved) {
    SyncState state = saved.state();
    List<ProjectStatus.Skipped> skipped = new ArrayList<>();
    state
        .skipped()
        .forEach(
            (key, skip) ->
                skipped.add(
                    new ProjectStatus.Skipped(
                        key,
                        skip.reason().name().toLowerCase(java.util.Locale.ROOT),
                        skip.detail(),
                        skip.inWords())));
    List<ProjectStatus.Conflict> conflicts = new ArrayList<>();
    for (SyncState.ConflictRecord conflict : state.conflicts()) {
      conflicts.add(
          new ProjectStatus.Conflict(
              conflict.key(),
              conflict.detectedAt(),
              conflict.theirVersion() > 0 ? conflict.theirVersion() : null,
              conflict.theirAuthor(),
              conflict.theirChecksum(),
              conflict.savedCopy(),
              ConflictWords.of(state, conflict)));
    }
    List<ProjectStatus.KeptLocally> kept = new ArrayList<>();
    state
        .keptDeletions()
        .forEach((key, deletion) -> kept.add(new ProjectStatus.KeptLocally(key, deletion.at())));
    List<ProjectStatus.Refused> refused = new ArrayList<>();
    state
        .refusedKeys()
        .forEach((key, reason) -> refused.add(new ProjectStatus.Refused(key, reason)));
    List<ProjectStatus.Deleting> deleting = new ArrayList<>();
    state
        .missingSince()
        .forEach((key, since) -> deleting.add(new ProjectStatus.Deleting(key, since)));
    ProjectStatus.DeletesHeld held =
        state
            .heldDeletes()
            .map(
                hold ->
                    new ProjectStatus.DeletesHeld(
                        hold.reason(), hold.keys(), hold.since(), hold.released()))
            .orElse(null);
    String daemon =
        SavedProjects.runningPid(saved.stateDir())
            .map(pid -> "running (pid " + pid + ")")
            .orElse("not running");
    return new ProjectStatus(
        state.repo(),
        state.teamDir(),
        state.serverUrl(),
        state.memoryStore().map(SyncState.StoreSync::path).orElse(null),
        consoleLink(state.serverUrl(), state.repo()),
        daemon,
        state.lastPullAt(),
        state.lastPushAt(),
        SavedProjects.pending(state),
        skipped,
        conflicts,
        kept,
        refused,
        deleting,
        held,
        state.blockedReason(),
        state.lastError(),
        state.lastErrorAt(),
        state.forgotten().orElse(null),
        keptToday(saved.stateDir()),
        reviews(OwnReviews.load(saved.stateDir()).waiting()),
        reviews(OwnReviews.load(saved.stateDir()).rejected()));
  }

  private static List<ProjectStatus.Review> reviews(List<ReviewPage.Review> reviews) {
    return reviews.stream()
        .map(
            review ->
                new ProjectStatus.Review(
                    review.id(),
                    review.key(),
                    review.author(),
                    review.operation(),
                    review.createdAt(),
                    review.reviewer(),
                    review.comment() == null || review.comment().isEmpty()
                        ? null
                        : review.comment(),
                    review.decidedAt()))
        .toList();
  }

  /** The keys of the copies kept today (local time) before the server replaced or deleted them. */
  private static List<String> keptToday(Path stateDir) {
    java.time.Instant midnight =
        java.time.LocalDate.now().atStartOfDay(java.time.ZoneId.systemDefault()).toInstant();
    try {
      return KeptCopies.of(stateDir, System.getenv()).keptSince(midnight).stream()
          .map(KeptCopies.Kept::key)
          .distinct()
          .sorted()
          .toList();
    } catch (IOException unreadable) {
      return List.of();
    }
  }

  /**
   * Where the server's console shows the repository ({@code tmem console} opens it signed in); null
   * before the first sync says which server.
   */
  static String consoleLink(String serverUrl, String repo) {
    if (serverUrl == null || serverUrl.isBlank() || repo == null) {
      return null;
    }
    String base = serverUrl.strip();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base + "/console/repos/" + repo;
  }

  static ProjectStatus neverSynced(Project project) {
    return new ProjectStatus(
        project.repo(),
        project.teamDir().toString(),
        null,
        null,
        null,
        "not running",
        null,
        null,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        null,
        null,
        null,
        null,
        null,
        List.of(),
        List.of(),
        List.of());
  }

  static String text(ProjectStatus status) {
    StringBuilder out = new StringBuilder();
    out.append(status.repo()).append("  ").append(status.teamDir()).append('\n');
    line(out, "server", status.server() == null ? "never synced" : status.server());
    if (status.server() != null) {
      line(
          out,
          "store",
          status.store() == null
              ? "none (files sync through team_memory, the whole repository at a time)"
              : status.store());
    }
    if (status.console() != null) {
      line(out, "console", status.console());
    }
    line(out, "daemon", status.daemon());
    line(out, "last pull", status.lastPull() == null ? "never" : status.lastPull());
    line(out, "last push", status.lastPush() == null ? "never" : status.lastPush());
    line(
        out,
        "pending",
        status.pending().isEmpty()
            ? "nothing"
            : status.pending().size()
                + " change(s): "
                + String.join(", ", status.pending().stream().map(Display::key).toList()));
    for (ProjectStatus.Skipped skip : status.skipped()) {
      line(out, "not synced", Display.key(skip.key()) + " — " + skip.words());
    }
    for (ProjectStatus.Conflict conflict : status.conflicts()) {
      line(out, "conflict", conflict.words());
    }
    for (ProjectStatus.KeptLocally kept : status.deletedOnServerKeptLocally()) {
      line(
          out,
          "kept",
          Display.key(kept.key())
              + " — deleted on the server but modified here, so kept; delete it yourself, or edit it to push it again");
    }
    for (ProjectStatus.Refused refused : status.refusedFromServer()) {
      line(
          out,
          "refused",
          "the server's key " + Display.key(refused.key()) + " — " + refused.reason());
    }
    ProjectStatus.DeletesHeld held = status.deletesHeld();
    for (ProjectStatus.Deleting deleting : status.deleting()) {
      if (held == null || !held.keys().contains(deleting.key())) {
        line(
            out,
            "deleting",
            Display.key(deleting.key())
                + " — missing here since "
                + deleting.missingSince()
                + "; deleted on the server if still missing at the next scan");
      }
    }
    if (held != null) {
      line(
          out,
          "held",
          held.keys().size()
              + " delete(s) since "
              + held.since()
              + " — "
              + held.reason()
              + ": "
              + String.join(", ", held.keys().stream().map(Display::key).toList())
              + (held.released()
                  ? "; confirmed, deleting on the server"
                  : "; put the files back, or run `tmem team confirm-deletes` to delete them on"
                      + " the server"));
    }
    if (status.blocked() != null) {
      line(out, "stopped", "pushing stopped until you act: " + status.blocked());
    }
    if (status.serverForgot() != null) {
      line(out, "forgot", status.serverForgot());
    }
    if (!status.keptToday().isEmpty()) {
      line(
          out,
          "kept today",
          status.keptToday().size()
              + " file(s) kept before the server replaced or deleted them: "
              + String.join(", ", status.keptToday().stream().map(Display::key).toList())
              + "; `tmem team restore` lists and brings them back");
    }
    for (ProjectStatus.Review waiting : status.waitingForReview()) {
      line(
          out,
          "in review",
          Display.key(waiting.key())
              + " — "
              + ("delete".equals(waiting.operation()) ? "the delete" : "the change")
              + (waiting.author() == null ? "" : " by " + oneLine(waiting.author(), 100))
              + " of "
              + waiting.createdAt()
              + " waits for a reviewer; teammates get it once approved");
    }
    for (ProjectStatus.Review rejected : status.rejectedByReviewer()) {
      line(
          out,
          "rejected",
          Display.key(rejected.key())
              + " — "
              + ("delete".equals(rejected.operation()) ? "the delete" : "the change")
              + " of "
              + rejected.createdAt()
              + " was rejected by "
              + oneLine(String.valueOf(rejected.reviewer()), 100)
              + (rejected.decidedAt() == null ? "" : " on " + rejected.decidedAt())
              + (rejected.comment() == null
                  ? ""
                  : ": \u201c" + oneLine(rejected.comment(), 300) + "\u201d")
              + "; the approved version came back, and `tmem team restore` lists the copy kept"
              + " of yours");
    }
    if (status.lastError() != null) {
      line(out, "last error", status.lastError() + " (" + status.lastErrorAt() + ")");
    }
    return out.toString();
  }

  /**
   * A reviewer's text on one line of a terminal: control characters (line breaks, escape sequences)
   * become spaces, and a long one is cut.
   */
  static String oneLine(String text, int max) {
    StringBuilder shown = new StringBuilder();
    text.codePoints()
        .forEach(
            point ->
                shown.appendCodePoint(
                    Character.isISOControl(point) || Character.getType(point) == Character.FORMAT
                        ? ' '
                        : point));
    String flat = shown.toString().strip();
    return flat.codePointCount(0, flat.length()) <= max
        ? flat
        : flat.substring(0, flat.offsetByCodePoints(0, max)) + "…";
  }

  private static void line(StringBuilder out, String label, String value) {
    out.append("  ").append(String.format("%-12s", label + ":")).append(value).append('\n');
  }
}
