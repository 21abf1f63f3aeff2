package dev.teammemory.server;

import dev.teammemory.server.console.ConsoleKeyFile;
import dev.teammemory.server.database.EmbeddedDatabase;
import dev.teammemory.server.logging.LogFormat;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Starts the server. When no datasource URL is configured it first starts a real PostgreSQL,
 * embedded, with its data under {@code TMEM_DATA_DIR}, so a newcomer needs nothing but a JDK; an
 * installation without the embedded PostgreSQL's binaries (the container image) stops with one line
 * saying what to configure.
 */
@QuarkusMain
public final class ServerMain {

  ServerMain() {}

  /**
   * Quarkus's HTTP layer refuses a request target {@link java.net.URI} cannot parse (a bad
   * percent-encoding) with an empty {@code 400} before any handler runs; switched off, the same
   * check runs in {@code http.HttpLayerRefusals}, which answers in the envelope of the path's API.
   */
  static final String URI_VALIDATION_OFF = "vertx.disableURIValidation";

  public static void main(String... args) {
    System.setProperty(URI_VALIDATION_OFF, "true");
    try {
      LogFormat.install(System.getenv(), System.getProperties());
      if (EmbeddedDatabase.startUnlessConfigured(System.getenv(), System.getProperties())) {
        ConsoleKeyFile.useUnlessConfigured(
            EmbeddedDatabase.dataDirectory(System.getenv()),
            System.getenv(),
            System.getProperties());
      }
    } catch (LogFormat.Unknown | EmbeddedDatabase.Unavailable e) {
      // Before Quarkus has started there is no logging to speak of: one line, no stack trace.
      System.err.println("ERROR: " + e.getMessage());
      System.exit(1);
    }
    Quarkus.run(args);
  }
}
