package dev.teammemory.daemon.install;

import dev.teammemory.daemon.command.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a service manager's commands ({@code systemctl --user …}, {@code launchctl …}), found on the
 * host's {@code PATH}, and turns a failure into a message that says which command failed and how.
 */
final class ServiceControl {

  private static final long TIMEOUT_SECONDS = 60;

  private ServiceControl() {}

  /** Whether the manager's control program is on the host's {@code PATH}. */
  static boolean available(Host host, ServiceManager manager) {
    return host.findExecutable(manager.controlCommand()).isPresent();
  }

  /** Runs each command in turn; stops at the first that fails. */
  static void runAll(Host host, List<List<String>> commands, PrintWriter out) {
    for (List<String> command : commands) {
      run(host, command);
      out.println("  ran: " + String.join(" ", command));
    }
  }

  private static void run(Host host, List<String> command) {
    String program = command.getFirst();
    Path executable =
        host.findExecutable(program)
            .orElseThrow(
                () ->
                    UserError.problem(
                        program + " is not on PATH; run yourself: " + String.join(" ", command)));
    List<String> resolved = new ArrayList<>(command);
    resolved.set(0, executable.toString());
    Path log = null;
    try {
      // Output goes to a file, not a pipe, so that a command that hangs cannot block the read
      // and the timeout below holds.
      log = Files.createTempFile("tmem-install-", ".log");
      Process process =
          new ProcessBuilder(resolved)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      process.getOutputStream().close();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw UserError.problem(
            String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
      }
      if (process.exitValue() != 0) {
        String output = Files.readString(log, StandardCharsets.UTF_8).strip();
        throw UserError.problem(
            String.join(" ", command)
                + " failed with exit code "
                + process.exitValue()
                + (output.isEmpty() ? "" : ": " + output.lines().findFirst().orElse("")));
      }
    } catch (IOException e) {
      throw UserError.problem("could not run " + String.join(" ", command) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw UserError.problem("interrupted while running " + String.join(" ", command));
    } finally {
      deleteQuietly(log);
    }
  }

  private static void deleteQuietly(Path log) {
    if (log == null) {
      return;
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // A leftover temporary file is harmless; the command's outcome is what matters.
    }
  }
}
