package dev.teammemory.daemon.run;

import dev.teammemory.daemon.command.LogFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;

/**
 * The daemon's log: one line per event in the format of every command ({@link LogFormat}), to
 * stderr and to {@code <state home>/daemon.log}. Lines name repositories, keys, rule ids and
 * counts; never a token or a file's content.
 */
final class DaemonLog {

  private static final String ROOT = "dev.teammemory.daemon";

  private DaemonLog() {}

  /**
   * Sends every logger to stderr and the daemon's loggers to the log file too; returns the file.
   */
  static Path install(Path stateHome, LogFormat format, PrintWriter err) throws IOException {
    Files.createDirectories(stateHome);
    Path file = stateHome.resolve("daemon.log");
    // Again here, for the daemon run by something other than the launcher (its own stderr).
    format.sendTo(err);
    Logger daemon = Logger.getLogger(ROOT);
    for (Handler handler : daemon.getHandlers()) {
      daemon.removeHandler(handler);
    }
    FileHandler fileHandler = new FileHandler(file.toString(), 10_000_000, 1, true);
    format.format(fileHandler);
    daemon.addHandler(fileHandler);
    return file;
  }
}
