package dev.teammemory.server.memory;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.teammemory.server.http.ProtocolJsonStream;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The body of a full GET, written to the response as PostgreSQL reads it, so that what a read holds
 * is a few entries and the buffers, whatever the size of the repository. It reads inside the
 * read-only, repeatable-read transaction in which the repository row (and so the ETag) was read:
 * the body is that one snapshot, however many writes land while it streams. Keys come in UTF-8 byte
 * order ({@code COLLATE "C"}), the order of the wire body; the entries first, then their checksums,
 * then the deleted keys, each from a cursor ({@code memory_entry_key_bytes_idx}), as the body's
 * fields follow each other (PROTOCOL.md). Not thread-safe: one response writes it once, then closes
 * it, which ends the transaction and returns the connection. A caller who reads a view of the
 * repository ({@link CallerViews}) gets the same statements over that view.
 */
final class SnapshotStream implements AutoCloseable {

  /**
   * Entries a fetch of the cursor brings: a bound on the heap a read holds (each entry at most
   * {@code TMEM_LIMITS_MAX_ENTRY_BYTES}), and few enough round trips for small entries.
   */
  static final int ENTRY_ROWS_PER_FETCH = 8;

  /** Keys with their checksums a fetch brings: about 100 bytes each. */
  private static final int CHECKSUM_ROWS_PER_FETCH = 1_000;

  private final Connection connection;
  private final int isolation;
  private final Optional<String> viewer;
  private final long repositoryId;
  private final String organizationId;
  private final String repo;
  private final long version;
  private final String lastModified;
  private final String checksum;
  private boolean closed;

  SnapshotStream(
      Connection connection,
      int isolation,
      Optional<String> viewer,
      long repositoryId,
      String organizationId,
      String repo,
      long version,
      String lastModified,
      String checksum) {
    this.connection = connection;
    this.isolation = isolation;
    this.viewer = viewer;
    this.repositoryId = repositoryId;
    this.organizationId = organizationId;
    this.repo = repo;
    this.version = version;
    this.lastModified = lastModified;
    this.checksum = checksum;
  }

  /** The repository checksum the body carries: the ETag. */
  String checksum() {
    return checksum;
  }

  /**
   * Writes the body to {@code out}, field by field as {@code RepositorySnapshot} is written whole;
   * returns the UTF-8 bytes of the entries' contents.
   */
  long writeTo(OutputStream out) throws IOException {
    long contentBytes = 0;
    try (JsonGenerator json = ProtocolJsonStream.open(out)) {
      json.writeStartObject();
      stringField(json, "organizationId", organizationId);
      stringField(json, "repo", repo);
      json.writeFieldName("version");
      json.writeNumber(version);
      stringField(json, "lastModified", lastModified);
      stringField(json, "checksum", checksum);
      json.writeFieldName("content");
      json.writeStartObject();
      json.writeFieldName("entries");
      json.writeStartObject();
      try (PreparedStatement statement = prepare(RepositoryReader.ENTRIES)) {
        statement.setFetchSize(ENTRY_ROWS_PER_FETCH);
        statement.setLong(first(), repositoryId);
        try (ResultSet rows = statement.executeQuery()) {
          while (rows.next()) {
            stringField(json, rows.getString(1), rows.getString(2));
            contentBytes += rows.getInt(3);
          }
        }
      }
      json.writeEndObject();
      json.writeFieldName("entryChecksums");
      json.writeStartObject();
      try (ResultSet rows = checksums(false)) {
        while (rows.next()) {
          stringField(json, rows.getString(1), rows.getString(2));
        }
      }
      json.writeEndObject();
      json.writeEndObject();
      // deletedKeys is left out when empty, as the record's mapping leaves it out.
      try (ResultSet rows = checksums(true)) {
        if (rows.next()) {
          json.writeFieldName("deletedKeys");
          json.writeStartObject();
          do {
            stringField(json, rows.getString(1), rows.getString(2));
          } while (rows.next());
          json.writeEndObject();
        }
      }
      json.writeEndObject();
    } catch (SQLException e) {
      // The status and part of the body are on their way: the connection is cut, and the client
      // sees a body that does not parse, never a whole-looking one.
      throw new IOException("repository " + repo + " could not be read to the end", e);
    }
    return contentBytes;
  }

  private ResultSet checksums(boolean deleted) throws SQLException {
    PreparedStatement statement = prepare(RepositoryReader.CHECKSUMS);
    statement.closeOnCompletion();
    statement.setFetchSize(CHECKSUM_ROWS_PER_FETCH);
    statement.setLong(first(), repositoryId);
    statement.setBoolean(first() + 1, deleted);
    return statement.executeQuery();
  }

  /**
   * The statement as the caller reads it: over their view when they read one ({@link CallerViews}),
   * its first parameter then bound to the viewer.
   */
  private PreparedStatement prepare(String sql) throws SQLException {
    if (viewer.isEmpty()) {
      return connection.prepareStatement(sql);
    }
    PreparedStatement statement = connection.prepareStatement(CallerViews.over(sql));
    statement.setString(1, viewer.get());
    return statement;
  }

  /** The index of the statement's own first parameter. */
  private int first() {
    return viewer.isEmpty() ? 1 : 2;
  }

  private static void stringField(JsonGenerator json, String name, String value)
      throws IOException {
    json.writeFieldName(name);
    ProtocolJsonStream.writeString(json, value);
  }

  /** Ends the read-only transaction and returns the connection, once. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RepositoryReader.endSnapshotTransaction(connection, isolation);
  }
}
