package dev.teammemory.daemon.hook;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.agent.HookLog;
import dev.teammemory.daemon.command.Launcher;
import dev.teammemory.daemon.home.Environment;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * The hooks answered inside a running process (the daemon's local API) rather than by a JVM started
 * for each: the same entry points as {@code tmem hook <event>}, given the hook's input as bytes.
 * The Stop hook's work is queued on one thread of its own and the answer is empty at once, as the
 * agent needs nothing from it. A hook's problems never reach the agent from here: they go to {@code
 * <state home>/hooks.log}, as the shim promises.
 */
public final class HookAnswers implements AutoCloseable {

  /** What a hook prints to stdout; empty when it has nothing to add. */
  public record Answer(String out) {
    public Answer {
      requireNonNull(out, "out is null");
    }
  }

  /** Stop hooks waiting for the worker beyond this are dropped: the next turn's hook catches up. */
  private static final int QUEUED_STOPS = 16;

  private final Environment environment;
  private final Clock clock;
  private final ExecutorService stops;

  public HookAnswers(Environment environment, Clock clock) {
    this.environment = requireNonNull(environment, "environment is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.stops =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUED_STOPS),
            runnable -> {
              Thread thread = new Thread(runnable, "tmem-stop-hook");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** The events served, as {@code tmem hook <event>} names them. */
  public static List<String> events() {
    return HookSettings.HOOKS.stream().map(HookSettings.Hook::subcommand).toList();
  }

  /**
   * Answers one hook.
   *
   * @param event a name from {@link #events()}
   * @param privateIndex whether SessionStart adds the private index and the full instructions
   * @return empty when {@code event} is not a hook
   */
  public Optional<Answer> answer(String event, boolean privateIndex, byte[] input) {
    requireNonNull(input, "input is null");
    InputStream in = new ByteArrayInputStream(input);
    return switch (event) {
      case "session-start" ->
          Optional.of(
              run(
                  new HookCommand.SessionStart(environment, in, clock),
                  privateIndex ? List.of("--private-index") : List.of()));
      case "user-prompt" ->
          Optional.of(run(new HookCommand.UserPrompt(environment, in, clock), List.of()));
      case "pre-compact" ->
          Optional.of(run(new HookCommand.PreCompact(environment, in, clock), List.of()));
      case "stop" -> {
        try {
          stops.execute(
              () -> run(new HookCommand.Stop(environment, in, clock), List.of("--foreground")));
        } catch (RejectedExecutionException busy) {
          HookLog.record(environment, "stop", busy);
        }
        yield Optional.of(new Answer(""));
      }
      default -> Optional.empty();
    };
  }

  /** Runs an entry point as the hook command would; what it says on stderr goes to the log. */
  private Answer run(HookCommand.Entry entry, List<String> arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = Launcher.commandLine(entry);
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(arguments.toArray(String[]::new));
    if (exitCode != 0 || !err.toString().isBlank()) {
      HookLog.note(environment, commandLine.getCommandName(), exitCode, err.toString());
    }
    return new Answer(exitCode == 0 ? out.toString() : "");
  }

  /** Lets a queued Stop hook's work finish briefly, then stops. */
  @Override
  public void close() {
    stops.shutdown();
    try {
      stops.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
    stops.shutdownNow();
  }
}
