package dev.teammemory.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The lines the server logs under {@code dev.teammemory} while it is open, in the process of a
 * {@code @QuarkusTest} (its log manager serves {@code java.util.logging}): each record's formatted
 * message, and its exception's message if it has one.
 */
public final class CapturedLog implements AutoCloseable {

  private static final String OURS = "dev.teammemory";

  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final Handler handler =
      new Handler() {
        private final SimpleFormatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
          String line = formatter.formatMessage(record);
          Throwable thrown = record.getThrown();
          lines.add(thrown == null ? line : line + " " + thrown);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private CapturedLog() {
    handler.setLevel(Level.ALL);
    Logger.getLogger(OURS).addHandler(handler);
  }

  public static CapturedLog start() {
    return new CapturedLog();
  }

  /** Every line logged so far. */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  @Override
  public void close() {
    Logger.getLogger(OURS).removeHandler(handler);
  }
}
