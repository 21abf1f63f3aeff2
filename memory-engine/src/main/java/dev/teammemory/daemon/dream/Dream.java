package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.dailylog.DailyLogMode;
import dev.teammemory.daemon.extract.LoggedMemories;
import dev.teammemory.daemon.extract.MemoryAgentTools;
import dev.teammemory.daemon.extract.MemoryWriteGate;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.AgentOutcome;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Consolidation ("dream"): after the gates ({@link DreamGates}) and the lock ({@link
 * ConsolidationLock}), four phases — Orient, Gather, Consolidate, Prune and index — done by a model
 * when there is one ({@link ModelConsolidation}) and offline otherwise ({@link
 * OfflineConsolidation}); the offline index pass runs after a model too, as a safety net for the
 * index limits. Each phase is recorded for {@code tmem dream --status}, written to {@code
 * dream.log} and reported to the caller's progress listener. A failure or a cancellation rolls the
 * lock's time back, so the time gate opens again at once.
 */
public final class Dream {

  /** How a run was asked for. */
  public enum Mode {
    /** After a turn: every gate applies. */
    AUTO,
    /** {@code tmem dream --now}: only the enabled check and the lock apply. */
    NOW,
    /** {@code tmem dream --dry-run}: plan offline, change nothing, take no lock. */
    DRY_RUN
  }

  /**
   * @param dailyLog whether daily-log mode is on (automatic runs are then off)
   * @param workingDirectory the project the agent runs in, whose transcripts count as sessions
   * @param currentSession the session asking, which does not count
   * @param cancelled asked between phases; true stops the run and rolls back
   */
  public record Request(
      MemoryLocation location,
      boolean dailyLog,
      Path workingDirectory,
      Optional<String> currentSession,
      Mode mode,
      BooleanSupplier cancelled) {
    public Request {
      requireNonNull(location, "location is null");
      requireNonNull(workingDirectory, "workingDirectory is null");
      requireNonNull(currentSession, "currentSession is null");
      requireNonNull(mode, "mode is null");
      requireNonNull(cancelled, "cancelled is null");
    }

    /**
     * An automatic run ({@link Mode#AUTO}) for the project the environment's working directory is
     * in: its memory directory and daily-log mode resolved as every command resolves them.
     */
    public static Request automatic(
        Environment project, Optional<String> currentSession, BooleanSupplier cancelled) {
      MemoryLocation location = MemoryLocation.resolve(project);
      return new Request(
          location,
          DailyLogMode.of(project, location).enabled(),
          project.workingDirectory(),
          currentSession,
          Mode.AUTO,
          cancelled);
    }
  }

  public static final List<String> PHASES =
      List.of("orient", "gather", "consolidate", "prune and index");

  private final ClaudeLayout layout;
  private final LanguageModel model;
  private final Clock clock;
  private final SecretGuard guard;
  private final Consumer<String> progress;

  /**
   * @param progress told each phase and the outcome, one line each
   */
  public Dream(
      ClaudeLayout layout,
      LanguageModel model,
      Clock clock,
      SecretGuard guard,
      Consumer<String> progress) {
    this.layout = requireNonNull(layout, "layout is null");
    this.model = requireNonNull(model, "model is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.guard = requireNonNull(guard, "guard is null");
    this.progress = requireNonNull(progress, "progress is null");
  }

  public DreamOutcome run(Request request) throws IOException {
    Path memory = request.location().directory().toAbsolutePath().normalize();
    DreamState.Store store = new DreamState.Store(layout.stateHome(), memory);
    ConsolidationLock lock = ConsolidationLock.forThisProcess(memory, store.guard(), clock);
    List<Path> projects = projectDirectories(request.workingDirectory(), memory);
    if (request.mode() == Mode.DRY_RUN) {
      Optional<String> disabled = DreamGates.disabledBy(request.location(), request.dailyLog());
      if (!request.location().enabled()) {
        return new DreamOutcome.NotDue(disabled.orElseThrow());
      }
      List<String> planned = new ArrayList<>();
      for (Path log : LoggedMemories.logsSince(memory, lock.lastConsolidatedAt())) {
        planned.add("distil " + relative(memory, log) + " into topic files");
      }
      planned.addAll(describe(memory, plan(memory)));
      return new DreamOutcome.Planned(planned);
    }
    DreamGates.Decision decision =
        DreamGates.check(
            request.location(),
            request.dailyLog(),
            request.mode() == Mode.NOW,
            lock,
            store,
            clock,
            projects,
            request.currentSession());
    if (decision instanceof DreamGates.Decision.Closed closed) {
      return new DreamOutcome.NotDue(closed.reason());
    }
    List<String> sessions = ((DreamGates.Decision.Open) decision).sessions();
    Instant lastConsolidated = ((DreamGates.Decision.Open) decision).lastConsolidated();
    long prior;
    switch (lock.tryAcquire()) {
      case ConsolidationLock.Acquisition.Held held -> {
        return new DreamOutcome.Busy(held.pid(), held.since());
      }
      case ConsolidationLock.Acquisition.Lost lost -> {
        return new DreamOutcome.Busy(lost.winner().orElse(0), clock.instant());
      }
      case ConsolidationLock.Acquisition.Acquired acquired -> prior = acquired.priorMillis();
    }
    String writer =
        switch (model) {
          case OfflineLanguageModel offline -> "offline consolidation";
          case AnthropicLanguageModel anthropic -> "model " + anthropic.settings().model();
        };
    Recorder recorder = new Recorder(store, writer);
    String phase = PHASES.getFirst();
    try {
      recorder.phase(phase, sessions.size());
      List<TopicFile> files = OfflineConsolidation.orient(memory);
      phase = next(recorder, request, phase);
      List<String> described = new ArrayList<>();
      if (model instanceof OfflineLanguageModel) {
        // Gather, offline: the daily logs written since the last consolidation become topic
        // files. A model reads the logs and greps transcripts itself, in its own agent loop.
        for (Path log : LoggedMemories.logsSince(memory, lastConsolidated)) {
          LoggedMemories.Distilled distilled = LoggedMemories.distil(memory, log, guard);
          distilled
              .created()
              .forEach(
                  file ->
                      described.add(
                          "create "
                              + relative(memory, file)
                              + " (distilled from "
                              + relative(memory, log)
                              + ")"));
          distilled
              .updated()
              .forEach(
                  file ->
                      described.add(
                          "rewrite "
                              + relative(memory, file)
                              + " (distilled from "
                              + relative(memory, log)
                              + ")"));
        }
        if (!described.isEmpty()) {
          files = OfflineConsolidation.orient(memory);
        }
      }
      phase = next(recorder, request, phase);
      List<PlannedChange> changes = new ArrayList<>();
      Map<Path, Path> mergedInto = new HashMap<>();
      switch (model) {
        case OfflineLanguageModel offline -> {
          changes.addAll(OfflineConsolidation.consolidate(files, clock, mergedInto));
          OfflineConsolidation.apply(changes);
          described.addAll(describe(memory, changes));
        }
        case AnthropicLanguageModel anthropic -> {
          MemoryWriteGate gate = new MemoryWriteGate(memory, guard, Optional.empty());
          AgentOutcome outcome =
              ModelConsolidation.run(
                  anthropic,
                  memory,
                  projects,
                  sessions,
                  gate,
                  MemoryAgentTools.tools(request.workingDirectory()));
          if (outcome instanceof AgentOutcome.Failed failed) {
            throw new ModelFailed(failed.failure().describe());
          }
          gate.written().forEach(file -> described.add("wrote " + relative(memory, file)));
        }
      }
      phase = next(recorder, request, phase);
      Optional<PlannedChange> index =
          OfflineConsolidation.index(memory, OfflineConsolidation.orient(memory), mergedInto);
      if (index.isPresent()) {
        OfflineConsolidation.apply(List.of(index.get()));
        described.addAll(describe(memory, List.of(index.get())));
      }
      lock.release();
      recorder.end("completed", described.size() + " changes", described);
      progress.accept("dream: completed by " + writer + ": " + described.size() + " changes");
      return new DreamOutcome.Consolidated(writer, sessions.size(), described);
    } catch (CancelledAt cancelled) {
      lock.rollback(prior);
      recorder.end(
          "cancelled", "cancelled in " + cancelled.phase + "; the lock was rolled back", List.of());
      progress.accept("dream: cancelled in " + cancelled.phase + "; rolled back");
      return new DreamOutcome.Cancelled(cancelled.phase);
    } catch (ModelFailed | IOException | RuntimeException failure) {
      lock.rollback(prior);
      String reason =
          failure instanceof ModelFailed
              ? failure.getMessage()
              : FailureWords.describe(failure) + " in " + phase;
      recorder.end("failed", reason + "; the lock was rolled back", List.of());
      progress.accept("dream: failed in " + phase + " (" + reason + "); rolled back");
      return new DreamOutcome.Failed(reason);
    }
  }

  /** What consolidation would change now, offline. */
  List<PlannedChange> plan(Path memory) throws IOException {
    List<TopicFile> files = OfflineConsolidation.orient(memory);
    Map<Path, Path> mergedInto = new HashMap<>();
    List<PlannedChange> changes =
        new ArrayList<>(OfflineConsolidation.consolidate(files, clock, mergedInto));
    OfflineConsolidation.index(memory, files, mergedInto).ifPresent(changes::add);
    return changes;
  }

  /** Where consolidation of this memory stands; reads only, never moves a gate. */
  public DreamStatus status(
      MemoryLocation location,
      boolean dailyLog,
      Path workingDirectory,
      Optional<String> currentSession)
      throws IOException {
    Path memory = location.directory().toAbsolutePath().normalize();
    DreamState.Store store = new DreamState.Store(layout.stateHome(), memory);
    ConsolidationLock lock = ConsolidationLock.forThisProcess(memory, store.guard(), clock);
    Instant last = lock.lastConsolidatedAt();
    int sessions =
        DreamGates.sessionsTouchedSince(
                projectDirectories(workingDirectory, memory), last, currentSession)
            .size();
    Optional<String> disabled = DreamGates.disabledBy(location, dailyLog);
    Optional<DreamStatus.ConsolidationHolder> holder =
        lock.holder().map(held -> new DreamStatus.ConsolidationHolder(held.pid(), held.since()));
    Optional<DreamRun> lastRun = store.load().run();
    String next;
    Instant due = last.plus(Duration.ofHours(DreamGates.MIN_HOURS));
    if (disabled.isPresent()) {
      next = "not automatically: " + disabled.get();
    } else if (holder.isPresent()) {
      next = "running now in process " + holder.get().pid();
    } else if (clock.instant().isBefore(due)) {
      next = "after " + due + " and " + DreamGates.MIN_SESSIONS + " more sessions";
    } else if (sessions < DreamGates.MIN_SESSIONS) {
      next = "after " + (DreamGates.MIN_SESSIONS - sessions) + " more sessions";
    } else {
      next = "at the end of the next turn, or at the running daemon's next check";
    }
    return new DreamStatus(
        memory,
        disabled,
        last.equals(Instant.EPOCH) ? Optional.empty() : Optional.of(last),
        holder,
        sessions,
        lastRun,
        next);
  }

  private String next(Recorder recorder, Request request, String phase)
      throws IOException, CancelledAt {
    if (request.cancelled().getAsBoolean()) {
      throw new CancelledAt(phase);
    }
    String following = PHASES.get(PHASES.indexOf(phase) + 1);
    recorder.phase(following, -1);
    return following;
  }

  /** Writes each phase to the state file, the dream log and the progress listener. */
  private final class Recorder {
    private final DreamState.Store store;
    private DreamRun run;

    Recorder(DreamState.Store store, String writer) {
      this.store = store;
      this.run =
          new DreamRun(
              ProcessHandle.current().pid(),
              writer,
              clock.instant(),
              Optional.empty(),
              PHASES.getFirst(),
              "running",
              "",
              List.of());
    }

    void phase(String phase, int sessions) throws IOException {
      run = run.inPhase(phase);
      store.save(store.load().withRun(run));
      String line =
          "dream: phase "
              + (PHASES.indexOf(phase) + 1)
              + "/4 "
              + phase
              + (sessions >= 0 ? " (sessions since the last consolidation: " + sessions + ")" : "");
      store.log(clock.instant(), line + " [" + store.memoryDirectory() + "]");
      progress.accept(line);
    }

    void end(String outcome, String detail, List<String> changes) throws IOException {
      run = run.ended(clock.instant(), outcome, detail, changes);
      store.save(store.load().withRun(run));
      store.log(
          clock.instant(),
          "dream: " + outcome + " (" + detail + ") [" + store.memoryDirectory() + "]");
    }
  }

  private List<Path> projectDirectories(Path workingDirectory, Path memory) {
    List<Path> directories = new ArrayList<>();
    directories.add(layout.projectDirectory(workingDirectory));
    Path parent = memory.getParent();
    if (parent != null && layout.projectsDirectory().equals(parent.getParent())) {
      directories.add(parent);
    }
    return directories;
  }

  private static List<String> describe(Path memory, List<PlannedChange> changes) {
    return changes.stream().map(change -> change.describe(memory)).toList();
  }

  private static String relative(Path memory, Path file) {
    return file.startsWith(memory) ? memory.relativize(file).toString() : file.toString();
  }

  /** A cancellation seen between phases. */
  private static final class CancelledAt extends Exception {
    private final String phase;

    CancelledAt(String phase) {
      super(phase, null, false, false);
      this.phase = phase;
    }
  }

  /** The model's run failed; its message is the failure's description, never a prompt. */
  private static final class ModelFailed extends Exception {
    ModelFailed(String description) {
      super(description, null, false, false);
    }
  }
}
