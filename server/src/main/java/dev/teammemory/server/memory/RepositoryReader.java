package dev.teammemory.server.memory;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ETags;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.server.auth.RepositorySlug;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
 * The read hot paths (GET, the hashes probe, the change feed): each answered by one SQL statement,
 * which PostgreSQL runs on one snapshot, so version, checksum and entries always agree without a
 * transaction, and without a session or entities, whose per-row cost would exceed everything else
 * the request does (docs/benchmarks.md). The repository row comes first, then its entries in UTF-8
 * byte order of their keys ({@code COLLATE "C"} compares bytes): the order of the wire bodies, so
 * that sorting them again costs one comparison a key. A repository at version 0 (a memory store
 * created but never written) reads as never written. Nothing is cached: every replica reads the
 * database.
 */
@ApplicationScoped
public class RepositoryReader {

  private static final String CHECKSUM =
      "SELECT checksum FROM repository WHERE slug_key = ? AND version > 0";

  /** The hashes view's one statement (public so the server benchmark measures this very one). */
  public static final String HASHES =
      "SELECT 0 AS part, slug, version, checksum, last_modified,"
          + " NULL::text COLLATE \"C\" AS entry_key, NULL AS entry_checksum, FALSE AS deleted"
          + " FROM repository WHERE slug_key = ? AND version > 0"
          + " UNION ALL"
          + " SELECT 1, NULL, NULL, NULL, NULL, e.entry_key COLLATE \"C\", e.checksum, e.deleted"
          + " FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
          + " WHERE r.slug_key = ?"
          + " ORDER BY part, entry_key";

  /** The full GET's one statement (public for the same reason). */
  public static final String CONTENTS =
      "SELECT 0 AS part, slug, version, checksum, last_modified,"
          + " NULL::text COLLATE \"C\" AS entry_key, NULL AS entry_checksum, FALSE AS deleted,"
          + " NULL AS content, 0 AS size_bytes"
          + " FROM repository WHERE slug_key = ? AND version > 0"
          + " UNION ALL"
          + " SELECT 1, NULL, NULL, NULL, NULL, e.entry_key COLLATE \"C\", e.checksum, e.deleted,"
          + " e.content, e.size_bytes"
          + " FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
          + " WHERE r.slug_key = ?"
          + " ORDER BY part, entry_key";

  /** The change feed's {@code after_version} statement: the repository row, then newer keys. */
  private static final String CHANGES_AFTER =
      "SELECT 0 AS part, version, checksum, NULL::text COLLATE \"C\" AS entry_key,"
          + " NULL AS entry_checksum, FALSE AS deleted, NULL AS updated_by"
          + " FROM repository WHERE slug_key = ? AND version > 0"
          + " UNION ALL"
          + " SELECT 1, NULL, NULL, e.entry_key COLLATE \"C\", e.checksum, e.deleted, e.updated_by"
          + " FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
          + " WHERE r.slug_key = ? AND e.version > ?"
          + " ORDER BY part, entry_key";

  private final DataSource dataSource;
  private final MemoryConfig config;

  @Inject
  RepositoryReader(DataSource dataSource, MemoryConfig config) {
    this.dataSource = dataSource;
    this.config = config;
  }

  /**
   * The content bytes of the repository's live entries as its row counts them (0 when there is no
   * row): what a full GET will hold, known before it reads them.
   */
  long contentBytes(RepositorySlug slug) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement("SELECT total_bytes FROM repository WHERE slug_key = ?")) {
      statement.setString(1, slug.key());
      try (ResultSet row = statement.executeQuery()) {
        return row.next() ? row.getLong(1) : 0;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  /** The whole repository, or its hashes view, unless {@code ifNoneMatch} names its checksum. */
  ReadOutcome read(RepositorySlug slug, boolean hashesOnly, String ifNoneMatch) {
    try (Connection connection = dataSource.getConnection()) {
      if (ifNoneMatch != null) {
        // The cheap question first: a client that is up to date costs one row.
        try (PreparedStatement statement = connection.prepareStatement(CHECKSUM)) {
          statement.setString(1, slug.key());
          try (ResultSet row = statement.executeQuery()) {
            if (!row.next()) {
              return new ReadOutcome.NotFound();
            }
            if (ETags.matches(ifNoneMatch, row.getString(1))) {
              return new ReadOutcome.NotModified(row.getString(1));
            }
          }
        }
      }
      return hashesOnly ? hashes(connection, slug) : snapshot(connection, slug);
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  /**
   * The keys written after {@code afterVersion}, once the repository's version is above it (empty
   * until then). Every key's row remembers the version that last wrote it, tombstones included, so
   * any version up to the current one can be answered; a version beyond it (a client of another
   * database, or of a repository deleted and created again) is a reset.
   */
  Optional<VersionChanges> changesAfter(RepositorySlug slug, long afterVersion) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(CHANGES_AFTER)) {
      statement.setString(1, slug.key());
      statement.setString(2, slug.key());
      statement.setLong(3, afterVersion);
      try (ResultSet rows = statement.executeQuery()) {
        long version = 0;
        String checksum = Checksums.EMPTY;
        if (rows.next() && rows.getInt(1) == 0) {
          version = rows.getLong(2);
          checksum = rows.getString(3);
        }
        if (afterVersion > version) {
          return Optional.of(VersionChanges.reset(version, checksum));
        }
        if (version == afterVersion) {
          return Optional.empty();
        }
        Map<String, String> changed = new LinkedHashMap<>();
        Map<String, String> deleted = new LinkedHashMap<>();
        Map<String, String> authors = new LinkedHashMap<>();
        while (rows.next()) {
          if (rows.getBoolean(6)) {
            deleted.put(rows.getString(4), rows.getString(5));
          } else {
            changed.put(rows.getString(4), rows.getString(5));
            authors.put(rows.getString(4), rows.getString(7));
          }
        }
        return Optional.of(VersionChanges.of(version, checksum, changed, deleted, authors));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  /** The id of the repository's memory store, when the repository has a row. */
  Optional<String> storeId(RepositorySlug slug) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement("SELECT store_id FROM repository WHERE slug_key = ?")) {
      statement.setString(1, slug.key());
      try (ResultSet row = statement.executeQuery()) {
        return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  /** The hashes view; for a never-written repository the empty one (version 0, empty checksum). */
  HashesView hashesOrEmpty(RepositorySlug slug) {
    try (Connection connection = dataSource.getConnection()) {
      return hashes(connection, slug) instanceof ReadOutcome.Hashes hashes
          ? hashes.body()
          : new HashesView(0, Checksums.EMPTY, Map.of(), Map.of());
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  private ReadOutcome hashes(Connection connection, RepositorySlug slug) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(HASHES)) {
      statement.setString(1, slug.key());
      statement.setString(2, slug.key());
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next()) {
          return new ReadOutcome.NotFound();
        }
        long version = rows.getLong(3);
        String checksum = rows.getString(4);
        Map<String, String> entryChecksums = new LinkedHashMap<>();
        Map<String, String> deletedKeys = new LinkedHashMap<>();
        while (rows.next()) {
          (rows.getBoolean(8) ? deletedKeys : entryChecksums)
              .put(rows.getString(6), rows.getString(7));
        }
        return new ReadOutcome.Hashes(
            new HashesView(version, checksum, entryChecksums, deletedKeys));
      }
    }
  }

  private ReadOutcome snapshot(Connection connection, RepositorySlug slug) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(CONTENTS)) {
      statement.setString(1, slug.key());
      statement.setString(2, slug.key());
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next()) {
          return new ReadOutcome.NotFound();
        }
        String repo = rows.getString(2);
        long version = rows.getLong(3);
        String checksum = rows.getString(4);
        String lastModified =
            Timestamps.format(rows.getObject(5, OffsetDateTime.class).toInstant());
        Map<String, String> entries = new LinkedHashMap<>();
        Map<String, String> entryChecksums = new LinkedHashMap<>();
        Map<String, String> deletedKeys = new LinkedHashMap<>();
        long contentBytes = 0;
        while (rows.next()) {
          String key = rows.getString(6);
          if (rows.getBoolean(8)) {
            deletedKeys.put(key, rows.getString(7));
          } else {
            entryChecksums.put(key, rows.getString(7));
            entries.put(key, rows.getString(9));
            contentBytes += rows.getInt(10);
          }
        }
        return new ReadOutcome.Snapshot(
            new RepositorySnapshot(
                organizationOf(repo),
                repo,
                version,
                lastModified,
                checksum,
                new RepositorySnapshot.Content(entries, entryChecksums),
                deletedKeys),
            contentBytes);
      }
    }
  }

  /** {@code TMEM_ORGANIZATION}, else the repository's owner as spelled by its first write. */
  private String organizationOf(String repo) {
    return config.organization().orElseGet(() -> repo.substring(0, repo.indexOf('/')));
  }
}
