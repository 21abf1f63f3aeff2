package dev.teammemory.deploy.replicas;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A database of its own on the machine's PostgreSQL for one run, dropped when the run closes it.
 * Names start with a prefix ({@code tmem_scaleout_}, {@code tmem_load_}) so that a leftover is easy
 * to recognise.
 */
public final class ScratchDatabase implements AutoCloseable {

  /** The machine's PostgreSQL: loopback, trust authentication, user postgres. */
  public static final String MACHINE_POSTGRES = "jdbc:postgresql://127.0.0.1:5432/postgres";

  private final String adminUrl;
  private final String name;

  private ScratchDatabase(String adminUrl, String name) {
    this.adminUrl = adminUrl;
    this.name = name;
  }

  /** Creates {@code prefix + random} on the server {@code adminUrl} points at. */
  public static ScratchDatabase create(String adminUrl, String prefix) throws SQLException {
    requireNonNull(adminUrl, "adminUrl is null");
    if (!prefix.matches("[a-z_]+")) {
      throw new IllegalArgumentException(
          "a database prefix is lower case letters and _: " + prefix);
    }
    String name =
        prefix
            + UUID.randomUUID()
                .toString()
                .replace("-", "")
                .substring(0, 12)
                .toLowerCase(Locale.ROOT);
    try (Connection connection = DriverManager.getConnection(adminUrl, "postgres", "");
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    }
    return new ScratchDatabase(adminUrl, name);
  }

  public String name() {
    return name;
  }

  /** The JDBC URL of this database, for {@code QUARKUS_DATASOURCE_JDBC_URL}. */
  public String jdbcUrl() {
    return adminUrl.substring(0, adminUrl.lastIndexOf('/') + 1) + name;
  }

  /** Runs a query that returns one number, in this database. */
  public long queryNumber(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(jdbcUrl(), "postgres", "");
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      if (!result.next()) {
        throw new SQLException("no row from: " + sql);
      }
      return result.getLong(1);
    }
  }

  /** Drops the database, closing the connections still open to it. */
  @Override
  public void close() throws SQLException {
    try (Connection connection = DriverManager.getConnection(adminUrl, "postgres", "");
        Statement statement = connection.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }
}
