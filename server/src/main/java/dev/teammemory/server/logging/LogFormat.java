package dev.teammemory.server.logging;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Level;
import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * {@code TMEM_LOG_FORMAT}: {@code text} (the default, Quarkus's console format) or {@code json}
 * (one {@link JsonLogFormatter} object a line on standard output). Quarkus's JSON-logging extension
 * would do the latter but cannot be fetched here; Quarkus lets only extensions give its console
 * handler a formatter, so for JSON the server turns that handler off and puts its own on the root
 * logger before Quarkus starts: every line, the earliest included, comes out as JSON.
 */
public final class LogFormat {

  static final String VARIABLE = "TMEM_LOG_FORMAT";

  private LogFormat() {}

  /**
   * Sets up the format {@code TMEM_LOG_FORMAT} names; call before Quarkus starts.
   *
   * @throws Unknown when it names neither {@code text} nor {@code json}
   */
  public static void install(Map<String, String> environment, Properties system) {
    String format = environment.getOrDefault(VARIABLE, "text").strip();
    switch (format) {
      case "", "text" -> {}
      case "json" -> {
        system.setProperty("quarkus.log.console.enable", "false");
        ConsoleHandler handler =
            new ConsoleHandler(ConsoleHandler.Target.SYSTEM_OUT, new JsonLogFormatter());
        // Until Quarkus has applied the configured levels, every record reaches the root logger.
        handler.setLevel(level(environment.getOrDefault("QUARKUS_LOG_LEVEL", "INFO")));
        LogContext.getLogContext().getLogger("").addHandler(handler);
      }
      default -> throw new Unknown(VARIABLE + " must be text or json, not '" + format + "'");
    }
  }

  private static Level level(String name) {
    try {
      return LogContext.getLogContext().getLevelForName(name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException unknown) {
      return Level.INFO;
    }
  }

  /** A {@code TMEM_LOG_FORMAT} the server does not know. */
  public static final class Unknown extends RuntimeException {
    Unknown(String message) {
      super(message);
    }
  }
}
