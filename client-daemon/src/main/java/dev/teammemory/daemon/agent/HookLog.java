package dev.teammemory.daemon.agent;

import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Where a hook writes down what went wrong, so that a failure inside a hook costs the agent nothing
 * but still leaves a trace: {@code <state home>/hooks.log}, one line per failure (with the stack
 * trace under {@code TMEM_DEBUG=1}), never a memory's content.
 */
public final class HookLog {

  public static final String FILE = "hooks.log";

  /** Beyond this a log is moved to {@code <name>.1}, replacing the one before. */
  private static final long MAX_BYTES = 1_000_000;

  private HookLog() {}

  public static Path file(Environment environment) {
    return StateHome.of(environment).resolve(FILE);
  }

  /** Appends one failure; a log that cannot be written is given up on, never a reason to fail. */
  public static void record(Environment environment, String hook, Throwable failure) {
    StringBuilder entry =
        new StringBuilder()
            .append(Instant.now())
            .append(' ')
            .append(hook)
            .append(": ")
            .append(FailureWords.describe(failure))
            .append('\n');
    if (environment.get("TMEM_DEBUG").isPresent()) {
      StringWriter trace = new StringWriter();
      failure.printStackTrace(new PrintWriter(trace));
      entry.append(trace);
    }
    append(environment, entry);
  }

  /**
   * Appends what a hook answered inside the daemon said on stderr, one line each: the agent does
   * not see that stderr, so the log is where it is kept.
   */
  public static void note(Environment environment, String hook, int exitCode, String stderr) {
    StringBuilder entry = new StringBuilder();
    String prefix = Instant.now() + " " + hook + " (in the daemon, exit " + exitCode + "): ";
    stderr
        .lines()
        .filter(line -> !line.isBlank())
        .forEach(line -> entry.append(prefix).append(line).append('\n'));
    if (entry.isEmpty()) {
      entry.append(prefix).append("no message\n");
    }
    append(environment, entry);
  }

  private static void append(Environment environment, CharSequence entry) {
    try {
      Path log = file(environment);
      rotateIfLarge(log);
      Files.writeString(
          log, entry, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException | RuntimeException unwritable) {
      // The hook's answer matters more than its log.
    }
  }

  /** Creates the log's folder, and moves a log that grew too large aside. */
  public static void rotateIfLarge(Path log) throws IOException {
    Files.createDirectories(log.getParent());
    if (Files.isRegularFile(log) && Files.size(log) > MAX_BYTES) {
      Files.move(
          log, log.resolveSibling(log.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
