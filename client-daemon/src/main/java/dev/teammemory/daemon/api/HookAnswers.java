package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.agent.AgentEvent;
import dev.teammemory.daemon.agent.AgentHooks;
import dev.teammemory.daemon.agent.HookAnswer;
import dev.teammemory.daemon.agent.HookInput;
import dev.teammemory.daemon.agent.HookLog;
import dev.teammemory.daemon.agent.HookOutput;
import dev.teammemory.daemon.home.Environment;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The hooks answered inside a running process (the daemon's local API) rather than by a JVM started
 * for each: {@link AgentHooks}' answers, given the hook's input as bytes, printed as {@code tmem
 * hook <event>} prints them. The Stop hook's work is queued on one thread of its own and the answer
 * is empty at once, as the agent needs nothing from it. A hook's problems never reach the agent
 * from here: they go to {@code <state home>/hooks.log}, as the shim promises.
 */
final class HookAnswers implements AutoCloseable {

  /** What a hook prints to stdout; empty when it has nothing to add. */
  record Answer(String out) {
    Answer {
      requireNonNull(out, "out is null");
    }
  }

  /** Stop hooks waiting for the worker beyond this are dropped: the next turn's hook catches up. */
  private static final int QUEUED_STOPS = 16;

  private final Environment environment;
  private final AgentHooks hooks;
  private final ExecutorService stops;

  HookAnswers(Environment environment, Clock clock) {
    this.environment = requireNonNull(environment, "environment is null");
    this.hooks = new AgentHooks(environment, clock);
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
  static List<String> events() {
    return Arrays.stream(AgentEvent.values()).map(AgentEvent::command).toList();
  }

  /**
   * Answers one hook.
   *
   * @param event a name from {@link #events()}
   * @param privateIndex whether SessionStart adds the private index and the full instructions
   * @return empty when {@code event} is not a hook
   */
  Optional<Answer> answer(String event, boolean privateIndex, byte[] input) {
    return answer(event, privateIndex, false, input);
  }

  /**
   * Answers one hook of Claude Code's or, with {@code codex}, of Codex's ({@link
   * HookInput#fromCodex}); both read the same answer shapes.
   */
  Optional<Answer> answer(String event, boolean privateIndex, boolean codex, byte[] input) {
    requireNonNull(input, "input is null");
    Optional<AgentEvent> known = AgentEvent.ofCommand(event);
    if (known.isEmpty()) {
      return Optional.empty();
    }
    if (known.get() == AgentEvent.STOP) {
      try {
        stops.execute(() -> answerNow(AgentEvent.STOP, false, codex, input));
      } catch (RejectedExecutionException busy) {
        HookLog.record(environment, AgentEvent.STOP.command(), busy);
      }
      return Optional.of(new Answer(""));
    }
    return Optional.of(answerNow(known.get(), privateIndex, codex, input));
  }

  /**
   * The answer, as the hook command would print it; what it would say on stderr goes to the log,
   * and so does a failure nobody planned for, which costs the agent only the answer.
   */
  private Answer answerNow(AgentEvent event, boolean privateIndex, boolean codex, byte[] bytes) {
    HookInput input;
    switch (HookInput.parse(bytes)) {
      case HookInput.Parsed.Read read -> input = codex ? read.input().fromCodex() : read.input();
      case HookInput.Parsed.Unreadable unreadable -> {
        HookLog.note(
            environment, event.command(), 1, "tmem: the hook input is " + unreadable.reason());
        return new Answer("");
      }
    }
    HookAnswer answer;
    try {
      answer =
          switch (event) {
            case SESSION_START -> hooks.sessionStart(input, privateIndex);
            case USER_PROMPT_SUBMIT -> hooks.userPrompt(input);
            case PRE_COMPACT -> hooks.preCompact(input);
            case STOP -> hooks.stop(input);
          };
    } catch (Exception | OutOfMemoryError | StackOverflowError unexpected) {
      HookLog.record(environment, event.command(), unexpected);
      return new Answer("");
    }
    List<String> said = new ArrayList<>(answer.notices());
    int exitCode = 0;
    if (answer instanceof HookAnswer.Refused refused) {
      said.add(refused.problem());
      exitCode = 1;
    }
    if (!said.isEmpty()) {
      HookLog.note(
          environment,
          event.command(),
          exitCode,
          String.join("\n", said.stream().map(line -> "tmem: " + line).toList()));
    }
    return new Answer(
        HookOutput.stdout(answer).map(line -> line + System.lineSeparator()).orElse(""));
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
