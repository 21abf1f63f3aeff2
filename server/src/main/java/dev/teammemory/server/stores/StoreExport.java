package dev.teammemory.server.stores;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.server.memory.CallerViews;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The export's read (MEMORY-STORES.md, "Claude Code's bulk export"): a store's live memories as
 * NDJSON lines, from one cursor of one read-only transaction — one snapshot, and never the whole
 * store in the heap — between the store line and the complete line that counts them. {@link
 * ExportResource} decides everything that can refuse the request before it, and watches the client.
 */
@ApplicationScoped
public class StoreExport {

  private static final String VERSION = "SELECT version FROM repository WHERE id = ?";
  private static final String FULL =
      "SELECT memory_id, entry_key, content, checksum, updated_at, updated_by FROM memory_entry"
          + " WHERE repository_id = ? AND NOT deleted ORDER BY entry_key COLLATE \"C\"";
  private static final String BASIC =
      "SELECT memory_id, entry_key, checksum, size_bytes, updated_by FROM memory_entry"
          + " WHERE repository_id = ? AND NOT deleted ORDER BY entry_key COLLATE \"C\"";

  private final DataSource dataSource;

  /** How many rows the cursor fetches at a time: what the export holds of the store at once. */
  private final int fetchSize;

  @Inject
  StoreExport(DataSource dataSource, ExportConfig config) {
    this.dataSource = dataSource;
    this.fetchSize = config.fetchSize();
  }

  /** Where the export's lines go, one JSON value at a time; it adds the newline. */
  @FunctionalInterface
  interface Line {
    void write(byte[] bytes) throws IOException;
  }

  /** How an export ended, once its lines were written or could not all be. */
  sealed interface Ending {

    /** How many memory lines were written. */
    long count();

    /** Every line, the complete line last. */
    record Complete(long count) implements Ending {}

    /** The database failed after {@code count} memory lines: the complete line is missing. */
    record Failed(long count, Exception cause) implements Ending {}
  }

  /**
   * Writes the export of the store's repository to {@code line}: the store line, a line a memory,
   * the complete line. A failure to write (the client went away) is thrown as it came.
   */
  Ending write(long repositoryId, Optional<String> viewer, boolean basic, Line line)
      throws IOException {
    ObjectMapper json = ProtocolJson.mapper();
    long count = 0;
    try (Connection connection = dataSource.getConnection()) {
      // One read-only transaction: the cursor (fetch size > 0 needs autocommit off) reads one
      // snapshot a few rows at a time.
      // Repeatable read makes the version and the memories one snapshot, so a daemon that starts
      // over from the export follows the change feed from exactly that version.
      connection.setAutoCommit(false);
      connection.setReadOnly(true);
      int isolation = connection.getTransactionIsolation();
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      // A caller who reads a view of the repository (review required) exports their view.
      String memories = basic ? BASIC : FULL;
      try (PreparedStatement statement =
          connection.prepareStatement(viewer.isEmpty() ? memories : CallerViews.over(memories))) {
        if (viewer.isPresent()) {
          statement.setString(1, viewer.get());
        }
        statement.setFetchSize(fetchSize);
        statement.setLong(viewer.isEmpty() ? 1 : 2, repositoryId);
        Map<String, Object> first = new LinkedHashMap<>();
        first.put("type", "store");
        if (basic) {
          // Claude Code checks this line exactly; the version is for the daemon's full export.
          first.put("view", "basic");
        } else {
          first.put("version", version(connection, repositoryId));
        }
        line.write(json.writeValueAsBytes(first));
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            line.write(json.writeValueAsBytes(basic ? basicLine(rows) : fullLine(rows)));
            count++;
          }
        }
        Map<String, Object> complete = new LinkedHashMap<>();
        complete.put("type", "complete");
        complete.put("memory_count", count);
        complete.put("error_count", 0);
        line.write(json.writeValueAsBytes(complete));
      } finally {
        connection.rollback();
        connection.setReadOnly(false);
        connection.setAutoCommit(true);
        connection.setTransactionIsolation(isolation);
      }
    } catch (SQLException e) {
      return new Ending.Failed(count, e);
    }
    return new Ending.Complete(count);
  }

  /** The repository's version (an extension of the store line: the change feed's version). */
  private static long version(Connection connection, long repositoryId) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(VERSION)) {
      statement.setLong(1, repositoryId);
      try (ResultSet row = statement.executeQuery()) {
        return row.next() ? row.getLong(1) : 0;
      }
    }
  }

  private static Map<String, Object> fullLine(ResultSet row) throws SQLException {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", "memory");
    line.put("id", row.getString("memory_id"));
    line.put("path", MemoryPaths.pathOf(row.getString("entry_key")));
    line.put("content", row.getString("content"));
    line.put("content_sha256", StoreBodies.hex(row.getString("checksum")));
    line.put(
        "updated_at",
        Timestamps.format(row.getObject("updated_at", OffsetDateTime.class).toInstant()));
    line.put("updated_by", actor(row.getString("updated_by")));
    return line;
  }

  private static Map<String, Object> basicLine(ResultSet row) throws SQLException {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", "memory");
    line.put("id", row.getString("memory_id"));
    line.put("path", MemoryPaths.pathOf(row.getString("entry_key")));
    line.put("content_sha256", StoreBodies.hex(row.getString("checksum")));
    line.put("content_size_bytes", row.getInt("size_bytes"));
    line.put("updated_by", actor(row.getString("updated_by")));
    return line;
  }

  /** Who wrote a memory's current version, in the shape of a version's {@code created_by}. */
  private static Map<String, String> actor(String user) {
    Map<String, String> actor = new LinkedHashMap<>();
    actor.put("type", "user_actor");
    actor.put("user_id", user);
    return actor;
  }
}
