package dev.teammemory.daemon.hook;

import dev.teammemory.daemon.agent.HookLog;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Stop hook's work — session notes, extraction, consolidation when due — in a process of its
 * own, so that the hook returns at once while a model may take seconds: {@code tmem hook stop
 * --foreground} (the hook commands' own entry point), started with this process's Java and class
 * path, given the hook's input on stdin and the environment the hook was given. Nobody waits for
 * it. Turns that end while it runs are coalesced by extraction's own cross-process lock, as when
 * the hook ran in the foreground.
 *
 * <p>Its output (only problems: the foreground hook prints nothing else) is appended to {@code
 * <state>/stop-hook.log}, never to the hook's stdout or stderr: the agent waits for those to close.
 */
final class DetachedStop {

  static final String LOG_FILE = "stop-hook.log";

  private DetachedStop() {}

  /**
   * Starts the process and hands it the input; returns without waiting for it.
   *
   * @throws IOException when the process cannot be started
   */
  static Process start(Environment environment, byte[] input) throws IOException {
    Path log = ClaudeLayout.of(environment).stateHome().resolve(LOG_FILE);
    HookLog.rotateIfLarge(log);
    ProcessBuilder builder =
        new ProcessBuilder(command())
            .directory(environment.workingDirectory().toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Map<String, String> variables = builder.environment();
    variables.clear();
    variables.putAll(environment.variables());
    variables.put("HOME", environment.home().toString());
    Process process = builder.start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(input);
    }
    return process;
  }

  /**
   * {@code java -cp <this class path> dev.teammemory.daemon.hook.HookCommand stop --foreground}.
   */
  static List<String> command() {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-cp");
    command.add(absoluteClassPath());
    command.add(HookCommand.class.getName());
    command.addAll(List.of("stop", "--foreground"));
    return command;
  }

  /** The class path with each entry absolute: the process starts in the agent's directory. */
  private static String absoluteClassPath() {
    List<String> entries = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      try {
        entries.add(Path.of(entry).toAbsolutePath().toString());
      } catch (InvalidPathException wildcard) {
        entries.add(entry);
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
