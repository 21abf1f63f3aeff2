package dev.teammemory.daemon.hook;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.agent.AgentHooks;
import dev.teammemory.daemon.agent.HookAnswer;
import dev.teammemory.daemon.agent.HookInput;
import dev.teammemory.daemon.agent.HookLog;
import dev.teammemory.daemon.agent.HookOutput;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.Launcher;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tmem hook …}: the entry points Claude Code's hooks call, a thin adapter over {@link
 * AgentHooks}. Each reads the hook's JSON on stdin and prints what the agent should see. A hook's
 * own problems exit 1, which the agent shows and ignores; never 2, which would block the user's
 * prompt or the agent's stop.
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

    /** Hook input is small; anything bigger is not what the agent sends. */
    private static final int MAX_BYTES = 4 * 1024 * 1024;

    final Environment environment;
    final InputStream in;
    final Clock clock;

    @Spec CommandSpec spec;

    Entry(Environment environment, InputStream in, Clock clock) {
      this.environment = requireNonNull(environment, "environment is null");
      this.in = requireNonNull(in, "in is null");
      this.clock = requireNonNull(clock, "clock is null");
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
        return answer(new AgentHooks(environment, clock));
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

    abstract Integer answer(AgentHooks hooks) throws IOException;

    /** The hook's input as it came on stdin. */
    byte[] readBytes() {
      byte[] bytes;
      try {
        bytes = in.readNBytes(MAX_BYTES + 1);
      } catch (IOException unreadable) {
        throw UserError.problem(
            "the hook input on stdin could not be read; run this command from a Claude Code hook");
      }
      if (bytes.length > MAX_BYTES) {
        throw UserError.problem(
            "the hook input on stdin is larger than 4 MiB; this is not what Claude Code sends");
      }
      return bytes;
    }

    /**
     * Reads the input. Problems are exit code 1, never 2: to Claude Code exit code 2 means "block",
     * and a broken memory hook must never block the user's prompt or the agent's stop.
     */
    static HookInput input(byte[] bytes) {
      return switch (HookInput.parse(bytes)) {
        case HookInput.Parsed.Read read -> read.input();
        case HookInput.Parsed.Unreadable unreadable ->
            throw UserError.problem(
                "the hook input on stdin is "
                    + unreadable.reason()
                    + "; run this command from a Claude Code hook");
      };
    }

    HookInput input() {
      return input(readBytes());
    }

    /** Prints the answer as Claude Code reads it: JSON context or plain text on stdout. */
    Integer print(HookAnswer answer) {
      answer.notices().forEach(notice -> err().println("tmem: " + notice));
      if (answer instanceof HookAnswer.Refused refused) {
        throw UserError.problem(refused.problem());
      }
      HookOutput.stdout(answer).ifPresent(out()::println);
      return ExitCode.OK;
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
    Integer answer(AgentHooks hooks) throws IOException {
      return print(hooks.sessionStart(input(), privateIndex));
    }
  }

  /** UserPromptSubmit: the memories relevant to the prompt, not shown before in the session. */
  @Command(
      name = "user-prompt",
      description = "Print the memories relevant to the user's prompt.",
      mixinStandardHelpOptions = true)
  public static final class UserPrompt extends Entry {

    public UserPrompt() {
      this(Environment.system(), System.in, Clock.systemUTC());
    }

    public UserPrompt(Environment environment, InputStream in, Clock clock) {
      super(environment, in, clock);
    }

    @Override
    Integer answer(AgentHooks hooks) {
      return print(hooks.userPrompt(input()));
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
    Integer answer(AgentHooks hooks) throws IOException {
      return print(hooks.preCompact(input()));
    }
  }

  /** Stop: the turn is over; keep the notes current, extract memories and consolidate when due. */
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
    Integer answer(AgentHooks hooks) throws IOException {
      byte[] bytes = readBytes();
      HookInput input = input(bytes);
      if (!AgentHooks.stopLeavesWork(input)) {
        return ExitCode.OK;
      }
      // A misconfigured model is the user's to fix: say so here, where they see it.
      Optional<String> modelProblem = hooks.modelProblem();
      if (modelProblem.isPresent()) {
        throw UserError.problem(modelProblem.get());
      }
      if (!foreground) {
        try {
          background = Optional.of(DetachedStop.start(environment, bytes));
          return ExitCode.OK;
        } catch (IOException cannotStart) {
          // No process of its own, then: the work is done here, only slower.
        }
      }
      return print(hooks.stop(input));
    }

    Optional<Process> background() {
      return background;
    }
  }
}
