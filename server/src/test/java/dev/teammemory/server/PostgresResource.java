package dev.teammemory.server;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

/**
 * The real PostgreSQL the server's tests run on: the one named by {@code TMEM_TEST_JDBC_URL} (a
 * fresh database is created in it per run, and dropped after), else an embedded one.
 */
public final class PostgresResource implements QuarkusTestResourceLifecycleManager {

  private EmbeddedPostgres embedded;
  private String adminUrl;
  private String databaseName;

  @Override
  public Map<String, String> start() {
    String configured = System.getenv("TMEM_TEST_JDBC_URL");
    if (configured != null && !configured.isBlank()) {
      return freshDatabaseIn(configured);
    }
    try {
      embedded = EmbeddedPostgres.builder().start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded PostgreSQL for tests", e);
    }
    return Map.of(
        "quarkus.datasource.jdbc.url", embedded.getJdbcUrl("postgres", "postgres"),
        "quarkus.datasource.username", "postgres",
        "quarkus.datasource.password", "");
  }

  private Map<String, String> freshDatabaseIn(String url) {
    adminUrl = url;
    databaseName = "tmem_test_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE DATABASE " + databaseName);
    int query = url.indexOf('?');
    String base = query < 0 ? url : url.substring(0, query);
    String parameters = query < 0 ? "" : url.substring(query);
    String databaseUrl = base.substring(0, base.lastIndexOf('/') + 1) + databaseName + parameters;
    return Map.of("quarkus.datasource.jdbc.url", databaseUrl);
  }

  @Override
  public void stop() {
    if (embedded != null) {
      try {
        embedded.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (databaseName != null) {
      execute("DROP DATABASE IF EXISTS " + databaseName + " WITH (FORCE)");
    }
  }

  private void execute(String sql) {
    try (Connection connection = DriverManager.getConnection(adminUrl);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "TMEM_TEST_JDBC_URL: could not run '" + sql + "': " + e.getMessage(), e);
    }
  }
}
