package dev.teammemory.daemon.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The one log format of every {@code tmem} command, named by {@code TMEM_LOG_FORMAT}: {@code text}
 * (the default: {@code <UTC time> <LEVEL> <message>}, one line per event) or {@code json} (one
 * object a line with {@code time}, {@code level}, {@code logger}, {@code message} and, for a
 * failure, {@code error}), as the server's. The launcher sets it up once, before any command logs,
 * so nothing prints in java.util.logging's two-line default.
 */
public enum LogFormat {
  text {
    @Override
    Formatter formatter() {
      return new Formatter() {
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
      };
    }
  },
  json {
    @Override
    Formatter formatter() {
      return new Formatter() {
        @Override
        public String format(LogRecord record) {
          Map<String, String> line = new LinkedHashMap<>();
          line.put("time", Instant.ofEpochMilli(record.getMillis()).toString());
          line.put("level", levelName(record.getLevel()));
          line.put("logger", String.valueOf(record.getLoggerName()));
          line.put("message", formatMessage(record));
          if (record.getThrown() != null) {
            line.put("error", record.getThrown().toString());
          }
          try {
            return JSON.writeValueAsString(line) + System.lineSeparator();
          } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a map of strings is always JSON", impossible);
          }
        }
      };
    }
  };

  /** The environment variable that names the format. */
  public static final String VARIABLE = "TMEM_LOG_FORMAT";

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One line per record in this format. */
  abstract Formatter formatter();

  /** The format the environment names, or a usage error for a name it does not know. */
  public static LogFormat fromEnvironment(Map<String, String> environment) {
    String name = environment.getOrDefault(VARIABLE, "").strip();
    return switch (name) {
      case "", "text" -> text;
      case "json" -> json;
      default -> throw UserError.usage(VARIABLE + " must be text or json, not '" + name + "'");
    };
  }

  /**
   * Sends every logger of this process to {@code err} in this format, at INFO and above, replacing
   * whatever handlers the root logger had (the JDK's two-line console handler).
   */
  public void sendTo(PrintWriter err) {
    Logger root = Logger.getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.setLevel(Level.INFO);
    Handler stream =
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
    stream.setFormatter(formatter());
    root.addHandler(stream);
  }

  /** Gives {@code handler} (a log file, say) this format and UTF-8. */
  public void format(Handler handler) {
    handler.setFormatter(formatter());
    try {
      handler.setEncoding("UTF-8");
    } catch (java.io.UnsupportedEncodingException impossible) {
      throw new IllegalStateException("every JVM has UTF-8", impossible);
    }
  }

  /** The server's level names, so that one pipeline reads both. */
  private static String levelName(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (value >= Level.WARNING.intValue()) {
      return "WARN";
    }
    if (value >= Level.INFO.intValue()) {
      return "INFO";
    }
    return value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
  }
}
