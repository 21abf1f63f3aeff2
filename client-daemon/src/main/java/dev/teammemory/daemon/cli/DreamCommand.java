package dev.teammemory.daemon.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.FormatOption;
import dev.teammemory.daemon.command.OutputFormat;
import dev.teammemory.daemon.command.ProjectDirectoryOption;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.dailylog.DailyLogMode;
import dev.teammemory.daemon.dream.Dream;
import dev.teammemory.daemon.dream.DreamGates;
import dev.teammemory.daemon.dream.DreamOutcome;
import dev.teammemory.daemon.dream.DreamRun;
import dev.teammemory.daemon.dream.DreamStatus;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tmem dream}: consolidates auto memory, shows where consolidation stands, or plans it. */
@Command(
    name = "dream",
    description = {
      "Consolidate auto memory: Orient, Gather, Consolidate, Prune and index. Without options it runs"
          + " only when due: 24 h since the last consolidation and 5 other sessions since; the Stop"
          + " hook checks this after every turn, and a running tmem daemon every 10 minutes.",
      "With ANTHROPIC_API_KEY a model merges, corrects and prunes; offline, exact and near"
          + " duplicates are merged, relative dates made absolute, dead index pointers pruned and the"
          + " index limits enforced."
    },
    mixinStandardHelpOptions = true)
public final class DreamCommand extends EngineCommand {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** How long Ctrl-C waits for a running phase to stop and roll back. */
  private static final Duration CANCEL_GRACE = Duration.ofSeconds(10);

  @ArgGroup(exclusive = true)
  Action action;

  static final class Action {
    @Option(
        names = "--now",
        description = "Consolidate now, whatever the time and session gates say.")
    boolean now;

    @Option(
        names = "--dry-run",
        description = "Show what an offline consolidation would change; change nothing.")
    boolean dryRun;

    @Option(
        names = "--status",
        description = "Show the gates, the lock and the last run, with its phase while it runs.")
    boolean status;
  }

  @Mixin ProjectDirectoryOption cwd;
  @Mixin FormatOption format;

  public DreamCommand() {
    this(Environment.system(), Clock.systemDefaultZone());
  }

  public DreamCommand(Environment environment, Clock clock) {
    super(environment, clock);
  }

  @Override
  public Integer call() throws IOException {
    Environment project = cwd.inProject(environment);
    MemoryLocation location = MemoryLocation.resolve(project);
    boolean dailyLog = DailyLogMode.of(project, location).enabled();
    LanguageModel model = model();
    PrintWriter out = out();
    PrintWriter err = err();
    Dream dream =
        new Dream(
            ClaudeLayout.of(environment),
            model,
            clock,
            SecretGuard.withDefaultRules(),
            line -> {
              if (format.value() == OutputFormat.text) {
                err.println("tmem: " + line);
              }
            });
    if (action != null && action.status) {
      DreamStatus status =
          dream.status(location, dailyLog, project.workingDirectory(), java.util.Optional.empty());
      switch (format.value()) {
        case text -> {
          out.print(text(status));
          out.flush();
        }
        case json -> out.println(JSON.writeValueAsString(json(status)));
      }
      return 0;
    }
    Dream.Mode mode =
        action == null ? Dream.Mode.AUTO : action.now ? Dream.Mode.NOW : Dream.Mode.DRY_RUN;
    AtomicBoolean cancel = new AtomicBoolean();
    CountDownLatch finished = new CountDownLatch(1);
    // Ctrl-C or SIGTERM mid-run: ask the run to stop at the next phase and wait for its rollback.
    Thread onSignal =
        new Thread(
            () -> {
              cancel.set(true);
              try {
                finished.await(CANCEL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
              }
            },
            "tmem-dream-cancel");
    Runtime.getRuntime().addShutdownHook(onSignal);
    DreamOutcome outcome;
    try {
      outcome =
          dream.run(
              new Dream.Request(
                  location,
                  dailyLog,
                  project.workingDirectory(),
                  java.util.Optional.empty(),
                  mode,
                  cancel::get));
    } finally {
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running; it returns as soon as it sees the run finished.
      }
    }
    if (format.value() == OutputFormat.json) {
      out.println(JSON.writeValueAsString(json(outcome)));
    }
    return switch (outcome) {
      case DreamOutcome.Consolidated consolidated -> {
        if (format.value() == OutputFormat.text) {
          out.println(
              "consolidated "
                  + location.directory()
                  + " by "
                  + consolidated.writer()
                  + ": "
                  + consolidated.changes().size()
                  + " changes");
          consolidated.changes().forEach(change -> out.println("  " + change));
        }
        yield 0;
      }
      case DreamOutcome.Planned planned -> {
        if (format.value() == OutputFormat.text) {
          out.println(
              planned.changes().isEmpty()
                  ? "nothing to consolidate in " + location.directory()
                  : "an offline consolidation of "
                      + location.directory()
                      + " would make "
                      + planned.changes().size()
                      + " changes (nothing was changed):");
          planned.changes().forEach(change -> out.println("  " + change));
        }
        yield 0;
      }
      case DreamOutcome.NotDue notDue -> {
        if (format.value() == OutputFormat.text) {
          out.println(
              "not due: "
                  + notDue.reason()
                  + (mode == Dream.Mode.AUTO ? " (--now consolidates anyway)" : ""));
        }
        yield 0;
      }
      case DreamOutcome.Busy busy ->
          throw UserError.problem(
              "process "
                  + busy.pid()
                  + " has been consolidating "
                  + location.directory()
                  + " since "
                  + busy.since()
                  + "; try again when it has finished (tmem dream --status shows its phase)");
      case DreamOutcome.Cancelled cancelled ->
          throw UserError.problem(
              "consolidation was cancelled in phase "
                  + cancelled.phase()
                  + "; the lock was rolled back");
      case DreamOutcome.Failed failed ->
          throw UserError.problem(
              "consolidation failed: "
                  + failed.reason()
                  + "; the lock was rolled back, so it runs again soon");
    };
  }

  static String text(DreamStatus status) {
    StringBuilder text =
        new StringBuilder("consolidation of ").append(status.memoryDirectory()).append('\n');
    text.append("  enabled: ")
        .append(status.disabledBy().map(reason -> "no, " + reason).orElse("yes"))
        .append('\n');
    text.append("  last consolidation: ")
        .append(status.lastConsolidated().map(Instant::toString).orElse("never"))
        .append('\n');
    text.append("  lock: ")
        .append(
            status
                .holder()
                .map(holder -> "held by process " + holder.pid() + " since " + holder.since())
                .orElse("free"))
        .append('\n');
    text.append("  sessions since: ")
        .append(status.sessionsSince())
        .append(" (")
        .append(DreamGates.MIN_SESSIONS)
        .append(" needed)\n");
    status
        .lastRun()
        .ifPresent(
            run -> {
              text.append("  last run: ").append(run.outcome());
              if (run.outcome().equals("running")) {
                text.append(" (phase ")
                    .append(Dream.PHASES.indexOf(run.phase()) + 1)
                    .append("/4 ")
                    .append(run.phase())
                    .append(", since ")
                    .append(run.started())
                    .append(")");
              } else {
                text.append(" at ")
                    .append(run.finished().map(Instant::toString).orElse("?"))
                    .append(" by ")
                    .append(run.writer())
                    .append(": ")
                    .append(run.detail());
              }
              text.append('\n');
              run.changes().forEach(change -> text.append("    ").append(change).append('\n'));
            });
    text.append("  next: ").append(status.next()).append('\n');
    return text.toString();
  }

  static ObjectNode json(DreamStatus status) {
    ObjectNode json = JSON.createObjectNode();
    json.put("memoryDirectory", status.memoryDirectory().toString());
    json.put("enabled", status.disabledBy().isEmpty());
    json.put("disabledBy", status.disabledBy().orElse(null));
    json.put("lastConsolidated", status.lastConsolidated().map(Instant::toString).orElse(null));
    if (status.holder().isPresent()) {
      json.putObject("lock")
          .put("pid", status.holder().get().pid())
          .put("since", status.holder().get().since().toString());
    } else {
      json.putNull("lock");
    }
    json.put("sessionsSince", status.sessionsSince());
    json.put("sessionsNeeded", DreamGates.MIN_SESSIONS);
    if (status.lastRun().isPresent()) {
      DreamRun run = status.lastRun().get();
      ObjectNode node = json.putObject("lastRun");
      node.put("pid", run.pid())
          .put("writer", run.writer())
          .put("started", run.started().toString());
      node.put("finished", run.finished().map(Instant::toString).orElse(null));
      node.put("phase", run.phase()).put("outcome", run.outcome()).put("detail", run.detail());
      ArrayNode changes = node.putArray("changes");
      run.changes().forEach(changes::add);
    } else {
      json.putNull("lastRun");
    }
    json.put("next", status.next());
    return json;
  }

  static ObjectNode json(DreamOutcome outcome) {
    ObjectNode json = JSON.createObjectNode();
    switch (outcome) {
      case DreamOutcome.Consolidated consolidated -> {
        json.put("outcome", "consolidated")
            .put("writer", consolidated.writer())
            .put("sessions", consolidated.sessions());
        ArrayNode changes = json.putArray("changes");
        consolidated.changes().forEach(changes::add);
      }
      case DreamOutcome.Planned planned -> {
        json.put("outcome", "planned");
        ArrayNode changes = json.putArray("changes");
        planned.changes().forEach(changes::add);
      }
      case DreamOutcome.NotDue notDue ->
          json.put("outcome", "not-due").put("reason", notDue.reason());
      case DreamOutcome.Busy busy ->
          json.put("outcome", "busy").put("pid", busy.pid()).put("since", busy.since().toString());
      case DreamOutcome.Cancelled cancelled ->
          json.put("outcome", "cancelled").put("phase", cancelled.phase());
      case DreamOutcome.Failed failed ->
          json.put("outcome", "failed").put("reason", failed.reason());
    }
    return json;
  }
}
