package dev.teammemory.daemon.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A backup of one repository's rows in the server's own database, and its restore: what a {@code
 * pg_dump} taken now and a {@code pg_restore} later do to that repository, with the test's JDBC
 * access only (no PostgreSQL client tools needed). The restore runs in one transaction under the
 * running server, as an operator's restore would.
 */
public final class RepositoryBackup {

  /** The tables holding a repository, in the order a restore inserts them. */
  private static final List<String> TABLES =
      List.of("repository", "memory_entry", "memory_entry_version");

  private final Supplier<Connection> database;
  private final String slugKey;
  private final String prefix;

  private RepositoryBackup(Supplier<Connection> database, String slugKey, String prefix) {
    this.database = database;
    this.slugKey = slugKey;
    this.prefix = prefix;
  }

  /** Copies the rows of {@code repo} aside, as they are now. */
  public static RepositoryBackup take(ServerProcess server, String repo) throws SQLException {
    String slugKey = repo.toLowerCase(Locale.ROOT);
    // Short: PostgreSQL cuts names at 63 bytes, and the table names must stay apart.
    String prefix = "backup_" + Long.toHexString(System.nanoTime());
    Supplier<Connection> database =
        () -> {
          try {
            return server.database();
          } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the server's database", e);
          }
        };
    try (Connection connection = database.get()) {
      for (String table : TABLES) {
        String rows =
            table.equals("repository")
                ? "SELECT * FROM repository WHERE slug_key = ?"
                : "SELECT t.* FROM "
                    + table
                    + " t JOIN repository r ON r.id = t.repository_id WHERE r.slug_key = ?";
        try (PreparedStatement copy =
            connection.prepareStatement("CREATE TABLE " + prefix + "_" + table + " AS " + rows)) {
          copy.setString(1, slugKey);
          copy.execute();
        }
      }
    }
    return new RepositoryBackup(database, slugKey, prefix);
  }

  /** Puts the repository back as it was when the backup was taken; later writes are gone. */
  public void restore() throws SQLException {
    try (Connection connection = database.get()) {
      connection.setAutoCommit(false);
      try (PreparedStatement delete =
          connection.prepareStatement("DELETE FROM repository WHERE slug_key = ?")) {
        delete.setString(1, slugKey);
        delete.execute();
      }
      for (String table : TABLES) {
        String columns = storedColumns(connection, table);
        try (PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO "
                    + table
                    + " ("
                    + columns
                    + ") SELECT "
                    + columns
                    + " FROM "
                    + prefix
                    + "_"
                    + table)) {
          insert.execute();
        }
      }
      connection.commit();
    }
  }

  /**
   * The table's columns a row is written with: a generated column (the console's search document)
   * is computed by PostgreSQL and refuses a value.
   */
  private static String storedColumns(Connection connection, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (PreparedStatement query =
        connection.prepareStatement(
            "SELECT column_name FROM information_schema.columns"
                + " WHERE table_schema = current_schema() AND table_name = ?"
                + " AND is_generated = 'NEVER' ORDER BY ordinal_position")) {
      query.setString(1, table);
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          columns.add(rows.getString(1));
        }
      }
    }
    return String.join(", ", columns);
  }
}
