package dev.teammemory.daemon.hook;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.Launcher;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.compact.CompactionInstructions;
import dev.teammemory.daemon.dailylog.DailyLogMode;
import dev.teammemory.daemon.extract.Extraction;
import dev.teammemory.daemon.extract.ExtractionOutcome;
import dev.teammemory.daemon.extract.MemoryInstructions;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryIndex;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.recall.RecallReport;
import dev.teammemory.daemon.recall.RecalledMemory;
import dev.teammemory.daemon.recall.SessionRecall;
import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tmem hook …}: the entry points Claude Code's hooks call. Each reads the hook's JSON on
 * stdin and prints what the agent should see. A hook's own problems exit 1, which the agent shows
 * and ignores; never 2, which would block the user's prompt or the agent's stop.
 */
@Command(
    name = "hook",
    description = {
      "Entry points for Claude Code hooks; each reads the hook's JSON on stdin.",
      "Install them into your Claude Code settings with: tmem hook install"
    },
    mixinStandardHelpOptions = true,
    subcommands = {
      HookCommand.SessionStart.class,
      HookCommand.UserPrompt.class,
      HookCommand.PreCompact.class,
      HookCommand.Stop.class,
      HookInstallCommand.class,
      HookInstallCommand.Uninstall.class
    })
public final class HookCommand {

  /** The hook commands on their own: the Stop hook's detached process starts here. */
  public static void main(String[] args) {
    Launcher.main(new HookCommand(), args);
  }

  /** What every hook entry point shares: its environment, stdin and clock. */
  abstract static class Entry implements Callable<Integer> {

    final Environment environment;
    final InputStream in;
    final Clock clock;

    @Spec CommandSpec spec;

    Entry(Environment environment, InputStream in, Clock clock) {
      this.environment = requireNonNull(environment, "environment is null");
      this.in = requireNonNull(in, "in is null");
      this.clock = requireNonNull(clock, "clock is null");
    }

    /** The environment as seen from the agent's working directory. */
    Environment inProject(HookInput input) {
      return input
          .cwd()
          .filter(Files::isDirectory)
          .map(environment::withWorkingDirectory)
          .orElse(environment);
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    PrintWriter err() {
      return spec.commandLine().getErr();
    }

    /**
     * Answers the hook. A failure nobody planned for never reaches the agent as an error: it is
     * written to {@code <state home>/hooks.log}, one line says so on stderr, and the hook exits 0
     * with whatever it had already printed. Problems the user has to fix ({@link UserError}) still
     * exit 1, which the agent shows and ignores.
     */
    @Override
    public final Integer call() {
      try {
        return answer();
      } catch (UserError forTheUser) {
        throw forTheUser;
      } catch (Exception | OutOfMemoryError | StackOverflowError unexpected) {
        HookLog.record(environment, spec.name(), unexpected);
        err()
            .println(
                "tmem: the "
                    + spec.name()
                    + " hook did not finish ("
                    + FailureWords.describe(unexpected)
                    + "); the agent goes on without it. Details: "
                    + HookLog.file(environment));
        return ExitCode.OK;
      }
    }

    abstract Integer answer() throws IOException;

    LanguageModel model() {
      try {
        return LanguageModel.fromEnvironment(environment.variables());
      } catch (IllegalArgumentException misconfigured) {
        throw UserError.problem(misconfigured.getMessage() + "; fix the variable or unset it");
      }
    }
  }

  /**
   * SessionStart: what the agent lacks about memory. Today's Claude Code loads the private {@code
   * MEMORY.md} and its own memory instructions itself, so by default this is the team's index and
   * the few lines about team memory; {@code --private-index} (chosen at {@code tmem hook install})
   * adds the private index and the full instructions for an agent that does not load them.
   */
  @Command(
      name = "session-start",
      description =
          "Print the team's MEMORY.md and what the agent needs to know about team memory, for a new"
              + " or resumed session.",
      mixinStandardHelpOptions = true)
  public static final class SessionStart extends Entry {

    @Option(
        names = "--private-index",
        description =
            "Also print the private MEMORY.md and the full memory instructions, for an agent that"
                + " does not load them itself.")
    boolean privateIndex;

    public SessionStart() {
      this(Environment.system(), System.in, Clock.systemDefaultZone());
    }

    public SessionStart(Environment environment, InputStream in, Clock clock) {
      super(environment, in, clock);
    }

    @Override
    Integer answer() throws IOException {
      HookInput input = HookInput.read(in);
      Environment project = inProject(input);
      MemoryLocation location = MemoryLocation.resolve(project);
      location.warnings().forEach(warning -> err().println("tmem: " + warning));
      if (!location.enabled()) {
        return 0;
      }
      List<String> problems = new ArrayList<>();
      String context =
          context(location, DailyLogMode.of(project, location), privateIndex, problems);
      if (!context.isEmpty()) {
        out().println(HookOutput.additionalContext("SessionStart", context));
      }
      problems.forEach(problem -> err().println("tmem: " + problem));
      return 0;
    }

    /**
     * The context in order of value within the hook's budget: the team index, then the private
     * index when asked for, then the instructions, whole or in brief.
     *
     * @param problems where an index that cannot be read is reported; the context goes on without
     *     it
     */
    static String context(
        MemoryLocation location, DailyLogMode dailyLog, boolean privateIndex, List<String> problems)
        throws IOException {
      HookBudget budget = new HookBudget("SessionStart");
      boolean team = location.teamActive() && !dailyLog.enabled();
      Path directory = location.directory();
      List<String> instructions = instructions(directory, dailyLog, privateIndex, team);
      // The shortest instructions and the private index's pointer always keep their room.
      List<String> essentials = new ArrayList<>();
      if (!instructions.isEmpty()) {
        essentials.add(instructions.getLast());
      }
      if (team) {
        Path teamIndexFile = location.teamDirectory().resolve(MemoryLocation.INDEX_FILE);
        List<String> after = new ArrayList<>(essentials);
        if (privateIndex) {
          after.add(HookBudget.pointer(0, 1, location.index()));
        }
        readableIndex(teamIndexFile, problems)
            .ifPresent(
                index ->
                    budget.addLines(
                        "## team/MEMORY.md (shared with everyone on this repository)\n\n",
                        index.content(),
                        teamIndexFile,
                        after));
      }
      if (privateIndex) {
        budget.addLines(
            "## MEMORY.md\n\n",
            readableIndex(location.index(), problems)
                .map(MemoryIndex::content)
                .orElse(
                    "Your MEMORY.md is currently empty. When you save new memories, they will appear here."),
            location.index(),
            essentials);
      }
      budget.addFirstThatFits(instructions);
      return budget.text();
    }

    /** The instructions the agent lacks, fullest first, the last one short. */
    private static List<String> instructions(
        Path directory, DailyLogMode dailyLog, boolean privateIndex, boolean team) {
      if (dailyLog.enabled()) {
        return List.of(
            MemoryInstructions.dailyLog(directory),
            "Auto memory is a daily log in this session: append one bullet per thing worth"
                + " remembering to logs/YYYY/MM/YYYY-MM-DD.md under "
                + directory
                + "; MEMORY.md is read-only.");
      }
      if (privateIndex) {
        return List.of(
            MemoryInstructions.autoMemory(directory, team),
            "Auto memory lives in "
                + directory
                + ": one file per memory with name, description and type frontmatter, and one"
                + " line for each in MEMORY.md."
                + (team ? " " + teamInBrief(directory) : ""));
      }
      if (team) {
        return List.of(MemoryInstructions.teamMemory(directory), teamInBrief(directory));
      }
      return List.of();
    }

    private static String teamInBrief(Path directory) {
      return "Team memory in "
          + directory.resolve("team")
          + " is shared with everyone on this repository and written like private memory; never"
          + " put a credential there.";
    }
  }

  /** UserPromptSubmit: the memories relevant to the prompt, not shown before in the session. */
  @Command(
      name = "user-prompt",
      description = "Print the memories relevant to the user's prompt.",
      mixinStandardHelpOptions = true)
  public static final class UserPrompt extends Entry {

    private static final int RECENT_MESSAGES = 20;

    /** How long the agent's prompt waits for a model to pick memories before lexical ranking. */
    static final Duration MODEL_DEADLINE = Duration.ofSeconds(2);

    public UserPrompt() {
      this(Environment.system(), System.in, Clock.systemUTC());
    }

    public UserPrompt(Environment environment, InputStream in, Clock clock) {
      super(environment, in, clock);
    }

    @Override
    Integer answer() throws IOException {
      HookInput input = HookInput.read(in);
      String prompt = input.prompt().orElse("").strip();
      if (prompt.isEmpty() || prompt.startsWith("/")) {
        return 0;
      }
      Environment project = inProject(input);
      if (!MemoryLocation.resolve(project).enabled()) {
        return 0;
      }
      Optional<String> session = input.sessionId().filter(HookCommand::validSessionId);
      RecallReport recalled;
      try {
        recalled =
            new SessionRecall(ClaudeLayout.of(project), model(), clock)
                .withModelDeadline(MODEL_DEADLINE)
                .recall(project, prompt, session, recentTools(input), input.transcriptPath());
      } catch (IOException failed) {
        throw UserError.problem("recall failed: " + FailureWords.describe(failed));
      }
      String context = context(recalled.memories());
      if (!context.isEmpty()) {
        out().println(HookOutput.additionalContext("UserPromptSubmit", context));
      }
      return 0;
    }

    /**
     * The memories in the order recall ranked them, each whole while they fit the hook's budget,
     * then cut at a line with a pointer to its file, then the pointer alone: every memory recall
     * chose is at least named.
     */
    static String context(List<RecalledMemory> memories) {
      HookBudget budget = new HookBudget("UserPromptSubmit");
      for (int i = 0; i < memories.size(); i++) {
        RecalledMemory memory = memories.get(i);
        // Each memory after this one keeps room at least for its pointer.
        List<String> pointersAfter =
            memories.subList(i + 1, memories.size()).stream()
                .map(later -> HookBudget.pointer(0, 1, later.file()))
                .toList();
        budget.addLines(memory.header() + "\n", memory.content(), memory.file(), pointersAfter);
      }
      return budget.text();
    }

    /** The tools the agent used lately: recall skips their usage notes, keeping their warnings. */
    private static List<String> recentTools(HookInput input) {
      if (input.transcriptPath().isEmpty()) {
        return List.of();
      }
      List<TranscriptEntry> messages;
      try {
        messages = Transcript.read(input.transcriptPath().get()).currentContext();
      } catch (IOException unreadable) {
        return List.of();
      }
      Set<String> tools = new LinkedHashSet<>();
      for (TranscriptEntry message :
          messages.subList(Math.max(0, messages.size() - RECENT_MESSAGES), messages.size())) {
        message.toolUses().stream().map(ContentBlock.ToolUse::name).forEach(tools::add);
      }
      return List.copyOf(tools);
    }
  }

  /** PreCompact: the session notes, as custom instructions for the agent's own compaction. */
  @Command(
      name = "pre-compact",
      description = "Print the session notes as custom instructions for the agent's compaction.",
      mixinStandardHelpOptions = true)
  public static final class PreCompact extends Entry {

    public PreCompact() {
      this(Environment.system(), System.in, Clock.systemUTC());
    }

    public PreCompact(Environment environment, InputStream in, Clock clock) {
      super(environment, in, clock);
    }

    @Override
    Integer answer() throws IOException {
      HookInput input = HookInput.read(in);
      ClaudeLayout layout = ClaudeLayout.of(environment);
      Optional<Path> notesFile = notesFile(layout, input);
      if (notesFile.isEmpty()) {
        return 0;
      }
      Optional<Path> transcript = input.transcriptPath().filter(Files::isRegularFile);
      if (transcript.isPresent()) {
        // Bring the notes up to date when they are due, so they cover what is about to be
        // compacted; notes that cannot be updated are still worth giving as they are.
        try {
          new SessionNotes(layout, model(), clock).update(transcript.get(), notesFile.get(), false);
        } catch (IOException | RuntimeException notUpdated) {
          if (notUpdated instanceof UserError forTheUser) {
            throw forTheUser;
          }
          HookLog.record(environment, spec.name(), notUpdated);
          err()
              .println(
                  "tmem: the session notes were not updated ("
                      + FailureWords.describe(notUpdated)
                      + "); giving them as they are");
        }
      }
      Optional<String> notes = readIfPresent(notesFile.get());
      if (notes.isEmpty()) {
        return 0;
      }
      Optional<String> template =
          readIfPresent(layout.sessionMemoryConfig().resolve("template.md"));
      CompactionInstructions.fromNotes(notes.get(), notesFile.get(), template)
          .ifPresent(out()::println);
      return 0;
    }
  }

  /** Stop: the turn is over; keep the notes current, extract memories, consolidate when due. */
  @Command(
      name = "stop",
      description = {
        "After each turn: update the session notes when due, extract memories and consolidate"
            + " when due.",
        "The work runs in a background process of its own and the hook returns at once; its"
            + " problems are appended to <state home>/"
            + DetachedStop.LOG_FILE
            + "."
      },
      mixinStandardHelpOptions = true)
  public static final class Stop extends Entry {

    @Option(
        names = "--foreground",
        description =
            "Do the work before returning, reporting problems here, instead of in a background"
                + " process.")
    boolean foreground;

    /** The process the last call handed its work to, when it did. */
    private Optional<Process> background = Optional.empty();

    public Stop() {
      this(Environment.system(), System.in, Clock.systemDefaultZone());
    }

    public Stop(Environment environment, InputStream in, Clock clock) {
      super(environment, in, clock);
    }

    @Override
    Integer answer() throws IOException {
      byte[] bytes = HookInput.readBytes(in);
      HookInput input = HookInput.parse(bytes);
      Optional<Path> transcript = input.transcriptPath().filter(Files::isRegularFile);
      if (input.stopHookActive() || transcript.isEmpty()) {
        return 0;
      }
      // A misconfigured model is the user's to fix: say so here, where they see it.
      LanguageModel model = model();
      if (!foreground) {
        try {
          background = Optional.of(DetachedStop.start(environment, bytes));
          return 0;
        } catch (IOException cannotStart) {
          // No process of its own, then: the work is done here, only slower.
        }
      }
      List<String> problems = afterTurn(input, transcript.get(), model);
      if (!problems.isEmpty()) {
        throw UserError.problem(String.join("; ", problems));
      }
      return 0;
    }

    Optional<Process> background() {
      return background;
    }

    private List<String> afterTurn(HookInput input, Path transcript, LanguageModel model)
        throws IOException {
      Environment project = inProject(input);
      ClaudeLayout layout = ClaudeLayout.of(environment);
      List<String> problems = new ArrayList<>();
      Optional<Path> notesFile = notesFile(layout, input);
      if (notesFile.isPresent()) {
        try {
          new SessionNotes(layout, model, clock).update(transcript, notesFile.get(), false);
        } catch (IOException failed) {
          problems.add("the session notes could not be updated: " + FailureWords.describe(failed));
        }
      }
      try {
        ExtractionOutcome outcome = Extraction.afterTurn(project, model, clock, transcript);
        if (outcome instanceof ExtractionOutcome.Failed failed) {
          problems.add("memory extraction failed: " + failed.reason());
        }
      } catch (IOException failed) {
        problems.add("memory extraction failed: " + FailureWords.describe(failed));
      }
      problems.addAll(AfterTurn.consolidateIfDue(project, model, clock, input.sessionId()));
      return problems;
    }
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

  /** An index, or empty with the reason in {@code problems} when it cannot be read. */
  static Optional<MemoryIndex> readableIndex(Path file, List<String> problems) {
    try {
      return MemoryIndex.load(file);
    } catch (IOException unreadable) {
      problems.add("left out " + file + ": " + FailureWords.describe(unreadable));
      return Optional.empty();
    }
  }

  private static boolean validSessionId(String id) {
    try {
      ClaudeLayout.checkSessionId(id);
      return true;
    } catch (IllegalArgumentException invalid) {
      return false;
    }
  }

  static Optional<String> readIfPresent(Path file) throws IOException {
    return SessionNotes.read(file);
  }
}
