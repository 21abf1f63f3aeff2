package dev.teammemory.daemon.run;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The daemon's log: one line per event, to stderr and to {@code <state home>/daemon.log}. Lines
 * name repositories, keys, rule ids and counts; never a token or a file's content.
 */
final class DaemonLog {

  private static final String ROOT = "dev.teammemory.daemon";
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private DaemonLog() {}

  /** Sends the daemon's loggers to stderr and the log file; returns the file. */
  static Path install(Path stateHome, PrintWriter err) throws IOException {
    Files.createDirectories(stateHome);
    Path file = stateHome.resolve("daemon.log");
    Logger root = Logger.getLogger(ROOT);
    root.setUseParentHandlers(false);
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.setLevel(Level.INFO);
    Formatter oneLine = new OneLine();
    FileHandler fileHandler = new FileHandler(file.toString(), 10_000_000, 1, true);
    fileHandler.setFormatter(oneLine);
    fileHandler.setEncoding("UTF-8");
    root.addHandler(fileHandler);
    Handler stderr =
        new Handler() {
          @Override
          public synchronized void publish(LogRecord record) {
            if (isLoggable(record)) {
              err.print(getFormatter().format(record));
              err.flush();
            }
          }

          @Override
          public void flush() {
            err.flush();
          }

          @Override
          public void close() {
            err.flush();
          }
        };
    stderr.setFormatter(oneLine);
    root.addHandler(stderr);
    return file;
  }

  static final class OneLine extends Formatter {
    @Override
    public String format(LogRecord record) {
      StringBuilder line =
          new StringBuilder()
              .append(TIME.format(Instant.ofEpochMilli(record.getMillis())))
              .append(' ')
              .append(record.getLevel().getName())
              .append(' ')
              .append(formatMessage(record).replace('\n', ' '));
      if (record.getThrown() != null) {
        line.append(" (").append(record.getThrown()).append(')');
      }
      return line.append(System.lineSeparator()).toString();
    }
  }
}
