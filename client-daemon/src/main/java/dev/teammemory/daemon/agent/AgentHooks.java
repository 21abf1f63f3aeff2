package dev.teammemory.daemon.agent;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.compact.CompactionInstructions;
import dev.teammemory.daemon.dailylog.DailyLogMode;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.recall.RecallReport;
import dev.teammemory.daemon.recall.SessionRecall;
import dev.teammemory.daemon.transcript.Transcript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Memory's answers to an agent's events — SessionStart, UserPromptSubmit, PreCompact and Stop —
 * whoever asks: the {@code tmem hook} commands, the local API's {@code /v1/hooks/<event>}, and
 * (next) Codex's hooks are adapters that parse the agent's input into a {@link HookInput} and print
 * the {@link HookAnswer} in the agent's format.
 *
 * <p>Each answer either succeeds, says what the person must fix ({@link HookAnswer.Refused}), or
 * throws {@link IOException} (or an unchecked failure nobody planned for), which an adapter writes
 * to the hook log ({@link HookLog}) before answering the agent with nothing: a hook never takes the
 * agent down.
 */
public final class AgentHooks {

  /** How long the agent's prompt waits for a model to pick memories before lexical ranking. */
  static final Duration MODEL_DEADLINE = Duration.ofSeconds(2);

  private final Environment environment;
  private final Clock clock;

  public AgentHooks(Environment environment, Clock clock) {
    this.environment = requireNonNull(environment, "environment is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * SessionStart: the team's index and what the agent needs to know about team memory.
   *
   * @param privateIndex also the private index and the full instructions, for an agent that does
   *     not load them itself
   */
  public HookAnswer sessionStart(HookInput input, boolean privateIndex) throws IOException {
    Environment project = inProject(input);
    MemoryLocation location = MemoryLocation.resolve(project);
    List<String> notices = new ArrayList<>(location.warnings());
    if (!location.enabled()) {
      return new HookAnswer.Nothing(notices);
    }
    String context =
        SessionContext.context(
            location,
            DailyLogMode.of(project, location),
            privateIndex,
            TeammateNotes.of(project, location),
            notices);
    return new HookAnswer.Context(AgentEvent.SESSION_START, context, notices);
  }

  /** UserPromptSubmit: the memories relevant to the prompt, not shown before in the session. */
  public HookAnswer userPrompt(HookInput input) {
    String prompt = input.prompt().orElse("").strip();
    if (prompt.isEmpty() || prompt.startsWith("/")) {
      return HookAnswer.Nothing.quietly();
    }
    Environment project = inProject(input);
    MemoryLocation location = MemoryLocation.resolve(project);
    if (!location.enabled()) {
      return HookAnswer.Nothing.quietly();
    }
    Optional<String> modelProblem = modelProblem();
    if (modelProblem.isPresent()) {
      return new HookAnswer.Refused(modelProblem.get());
    }
    Optional<String> session = input.sessionId().filter(AgentHooks::validSessionId);
    RecallReport recalled;
    try {
      recalled =
          new SessionRecall(ClaudeLayout.of(project), model(), clock)
              .withModelDeadline(MODEL_DEADLINE)
              .recall(
                  project,
                  prompt,
                  session,
                  RecallContext.recentTools(input.transcriptPath()),
                  input.transcriptPath());
    } catch (IOException failed) {
      return new HookAnswer.Refused("recall failed: " + FailureWords.describe(failed));
    }
    return new HookAnswer.Context(
        AgentEvent.USER_PROMPT_SUBMIT,
        RecallContext.context(recalled.memories(), TeammateNotes.of(project, location)),
        List.of());
  }

  /**
   * PreCompact: the session notes as custom instructions for the agent's own compaction, brought up
   * to date first when they are due; notes that cannot be updated are still worth giving.
   */
  public HookAnswer preCompact(HookInput input) throws IOException {
    ClaudeLayout layout = ClaudeLayout.of(environment);
    Optional<Path> notesFile = notesFile(layout, input);
    if (notesFile.isEmpty()) {
      return HookAnswer.Nothing.quietly();
    }
    List<String> notices = new ArrayList<>();
    Optional<Path> transcript = input.transcriptPath().filter(Files::isRegularFile);
    if (transcript.isPresent()) {
      Optional<String> modelProblem = modelProblem();
      if (modelProblem.isPresent()) {
        return new HookAnswer.Refused(modelProblem.get());
      }
      try {
        new SessionNotes(layout, model(), clock).update(transcript.get(), notesFile.get(), false);
      } catch (IOException | RuntimeException notUpdated) {
        HookLog.record(environment, AgentEvent.PRE_COMPACT.command(), notUpdated);
        notices.add(
            "the session notes were not updated ("
                + FailureWords.describe(notUpdated)
                + "); giving them as they are");
      }
    }
    Optional<String> notes = SessionNotes.read(notesFile.get());
    if (notes.isEmpty()) {
      return new HookAnswer.Nothing(notices);
    }
    Optional<String> template =
        SessionNotes.read(layout.sessionMemoryConfig().resolve("template.md"));
    return new HookAnswer.Instructions(
        CompactionInstructions.fromNotes(notes.get(), notesFile.get(), template), notices);
  }

  /**
   * Whether a Stop leaves work to do: not when a stop hook is already active (the agent is going on
   * because of one) or there is no transcript to learn from.
   */
  public static boolean stopLeavesWork(HookInput input) {
    return !input.stopHookActive()
        && input.transcriptPath().filter(Files::isRegularFile).isPresent();
  }

  /**
   * What keeps the model from being used, in words, when its variables are malformed: checked
   * before a Stop's work is handed elsewhere, so the person hears of it where they look.
   */
  public Optional<String> modelProblem() {
    try {
      LanguageModel.fromEnvironment(environment.variables());
      return Optional.empty();
    } catch (IllegalArgumentException misconfigured) {
      return Optional.of(misconfigured.getMessage() + "; fix the variable or unset it");
    }
  }

  /**
   * Stop: the turn is over; keep the notes current, extract memories and consolidate when due. This
   * takes as long as the model does: an adapter runs it where the agent does not wait.
   */
  public HookAnswer stop(HookInput input) throws IOException {
    if (!stopLeavesWork(input)) {
      return HookAnswer.Nothing.quietly();
    }
    Optional<String> modelProblem = modelProblem();
    if (modelProblem.isPresent()) {
      return new HookAnswer.Refused(modelProblem.get());
    }
    List<String> problems =
        AfterTurn.run(
            inProject(input),
            ClaudeLayout.of(environment),
            input,
            input.transcriptPath().orElseThrow(),
            model(),
            clock);
    return problems.isEmpty()
        ? HookAnswer.Nothing.quietly()
        : new HookAnswer.Refused(String.join("; ", problems));
  }

  /** The environment as seen from the agent's working directory. */
  private Environment inProject(HookInput input) {
    return input
        .cwd()
        .filter(Files::isDirectory)
        .map(environment::withWorkingDirectory)
        .orElse(environment);
  }

  /** The model the environment names; only after {@link #modelProblem()} found none. */
  private LanguageModel model() {
    return LanguageModel.fromEnvironment(environment.variables());
  }

  /** The session's notes: beside its transcript, or from its working directory and id. */
  static Optional<Path> notesFile(ClaudeLayout layout, HookInput input) throws IOException {
    Optional<Path> transcript = input.transcriptPath().filter(Files::isRegularFile);
    if (transcript.isPresent()) {
      return Optional.of(
          SessionNotes.notesFor(layout, transcript.get(), Transcript.read(transcript.get())));
    }
    if (input.cwd().isPresent() && input.sessionId().isPresent()) {
      try {
        return Optional.of(layout.sessionNotes(input.cwd().get(), input.sessionId().get()));
      } catch (IllegalArgumentException unusableSessionId) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static boolean validSessionId(String id) {
    try {
      ClaudeLayout.checkSessionId(id);
      return true;
    } catch (IllegalArgumentException invalid) {
      return false;
    }
  }
}
