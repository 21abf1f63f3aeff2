package dev.teammemory.server;

import dev.teammemory.protocol.Checksums;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Rows an earlier release could have written, put straight into the database by a test. */
public final class LegacyRows {

  private LegacyRows() {}

  /**
   * Stores an entry of an existing repository as a release that did not check it stored it (a key
   * or content today's rules refuse), with its kept version, in a new repository version.
   */
  public static void storeEntry(DataSource database, String repo, String key, String content)
      throws SQLException {
    try (Connection connection = database.getConnection()) {
      long repositoryId;
      long version;
      try (PreparedStatement bump =
          connection.prepareStatement(
              "UPDATE repository SET version = version + 1 WHERE slug_key = lower(?)"
                  + " RETURNING id, version")) {
        bump.setString(1, repo);
        try (ResultSet row = bump.executeQuery()) {
          row.next();
          repositoryId = row.getLong(1);
          version = row.getLong(2);
        }
      }
      try (PreparedStatement entry =
          connection.prepareStatement(
              "INSERT INTO memory_entry (repository_id, entry_key, content, checksum, size_bytes,"
                  + " version, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, now(), 'alice')")) {
        entry.setLong(1, repositoryId);
        entry.setString(2, key);
        entry.setString(3, content);
        entry.setString(4, Checksums.ofContent(content));
        entry.setInt(5, content.length());
        entry.setLong(6, version);
        entry.executeUpdate();
      }
      try (PreparedStatement kept =
          connection.prepareStatement(
              "INSERT INTO memory_entry_version (repository_id, entry_key, content, checksum,"
                  + " version, created_at, author) VALUES (?, ?, ?, ?, ?, now(), 'alice')")) {
        kept.setLong(1, repositoryId);
        kept.setString(2, key);
        kept.setString(3, content);
        kept.setString(4, Checksums.ofContent(content));
        kept.setLong(5, version);
        kept.executeUpdate();
      }
      try (PreparedStatement count =
          connection.prepareStatement(
              "UPDATE repository SET entry_count = entry_count + 1 WHERE id = ?")) {
        count.setLong(1, repositoryId);
        count.executeUpdate();
      }
    }
  }

  /** The id just before the repository's first entry: where a walk over its entries starts. */
  public static String positionBefore(DataSource database, String repo) throws SQLException {
    try (Connection connection = database.getConnection();
        PreparedStatement first =
            connection.prepareStatement(
                "SELECT min(e.id) - 1 FROM memory_entry e JOIN repository r"
                    + " ON r.id = e.repository_id WHERE r.slug_key = lower(?)")) {
      first.setString(1, repo);
      try (ResultSet row = first.executeQuery()) {
        row.next();
        return Long.toString(row.getLong(1));
      }
    }
  }
}
