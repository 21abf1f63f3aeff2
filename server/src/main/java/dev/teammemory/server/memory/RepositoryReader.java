package dev.teammemory.server.memory;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ETags;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.server.auth.AuthorizedRepository;
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
import org.jboss.logging.Logger;

/**
 * The read hot paths (GET, the hashes probe, the change feed). The hashes probe and the change feed
 * are each one SQL statement, which PostgreSQL runs on one snapshot, so version, checksum and
 * entries always agree without a transaction, and without a session or entities, whose per-row cost
 * would exceed everything else the request does (docs/benchmarks.md). The full GET streams (a
 * {@link SnapshotStream}): a few statements in one repeatable-read transaction, read through
 * cursors as the body is written, so it holds a few entries rather than the repository. The
 * repository row comes first, then its entries in UTF-8 byte order of their keys ({@code COLLATE
 * "C"} compares bytes): the order of the wire bodies, so that sorting them again costs one
 * comparison a key. A repository at version 0 (a memory store created but never written) reads as
 * never written. Nothing is cached: every replica reads the database.
 */
@ApplicationScoped
public class RepositoryReader {

  private static final Logger LOG = Logger.getLogger(RepositoryReader.class);

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

  /**
   * The full GET's first statement, in its transaction: the repository row, whose checksum is the
   * ETag sent before the body (public, as the next two, so the server benchmark measures these).
   */
  public static final String HEAD =
      "SELECT id, slug, version, checksum, last_modified FROM repository"
          + " WHERE slug_key = ? AND version > 0";

  /** The full GET's entries, a cursor over the live ones in the wire body's order. */
  public static final String ENTRIES =
      "SELECT entry_key COLLATE \"C\", content, size_bytes FROM memory_entry"
          + " WHERE repository_id = ? AND NOT deleted ORDER BY entry_key COLLATE \"C\"";

  /** The full GET's checksums: of the live entries, then (deleted = true) of the deleted keys. */
  public static final String CHECKSUMS =
      "SELECT entry_key COLLATE \"C\", checksum FROM memory_entry"
          + " WHERE repository_id = ? AND deleted = ? ORDER BY entry_key COLLATE \"C\"";

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

  /**
   * A view's keys ({@link CallerViews}): the repository row, then every key the view has, with the
   * version that last stamped it. Parameters: the viewer, then the slug key twice.
   */
  private static final String VIEW =
      CallerViews.over(
          "SELECT 0 AS part, r.version, NULL::text COLLATE \"C\" AS entry_key, NULL AS checksum,"
              + " FALSE AS deleted, NULL::bigint AS stamped, NULL AS updated_by"
              + " FROM repository r WHERE r.slug_key = ? AND r.version > 0"
              + " UNION ALL"
              + " SELECT 1, NULL, e.entry_key COLLATE \"C\", e.checksum, e.deleted, e.version,"
              + " e.updated_by"
              + " FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
              + " WHERE r.slug_key = ?"
              + " ORDER BY part, entry_key");

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

  /** The caller's hashes view, unless {@code ifNoneMatch} names its checksum. */
  ReadOutcome hashes(AuthorizedRepository target, String ifNoneMatch) {
    RepositorySlug slug = target.slug();
    try (Connection connection = dataSource.getConnection()) {
      Optional<String> viewer = CallerViews.viewer(connection, target);
      if (viewer.isPresent()) {
        Optional<View> view = view(connection, slug, viewer.get());
        if (view.isEmpty()) {
          return new ReadOutcome.NotFound();
        }
        return ifNoneMatch != null && ETags.matches(ifNoneMatch, view.get().checksum())
            ? new ReadOutcome.NotModified(view.get().checksum())
            : new ReadOutcome.Hashes(view.get().hashes());
      }
      Optional<ReadOutcome> unchanged = unchanged(connection, slug, ifNoneMatch);
      return unchanged.isPresent() ? unchanged.get() : hashes(connection, slug);
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  /**
   * What a full GET answers without reading the repository's contents: {@link ReadOutcome.NotFound}
   * when it was never written, {@link ReadOutcome.NotModified} when {@code ifNoneMatch} names the
   * caller's checksum (from the repository row alone, unless the caller reads a view); empty when
   * the body must be read.
   */
  Optional<ReadOutcome> absentOrUnchanged(AuthorizedRepository target, String ifNoneMatch) {
    RepositorySlug slug = target.slug();
    try (Connection connection = dataSource.getConnection()) {
      Optional<String> viewer = CallerViews.viewer(connection, target);
      if (viewer.isPresent()) {
        Optional<View> view = view(connection, slug, viewer.get());
        if (view.isEmpty()) {
          return Optional.of(new ReadOutcome.NotFound());
        }
        return ifNoneMatch != null && ETags.matches(ifNoneMatch, view.get().checksum())
            ? Optional.of(new ReadOutcome.NotModified(view.get().checksum()))
            : Optional.empty();
      }
      try (PreparedStatement statement = connection.prepareStatement(CHECKSUM)) {
        statement.setString(1, slug.key());
        try (ResultSet row = statement.executeQuery()) {
          if (!row.next()) {
            return Optional.of(new ReadOutcome.NotFound());
          }
          if (ifNoneMatch != null && ETags.matches(ifNoneMatch, row.getString(1))) {
            return Optional.of(new ReadOutcome.NotModified(row.getString(1)));
          }
          return Optional.empty();
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  /**
   * The whole repository as the caller sees it, as a body to stream ({@link SnapshotStream}), as it
   * is when this is called, or {@link ReadOutcome.NotFound}. The snapshot holds a connection in a
   * read-only, repeatable-read transaction until it is closed; every other outcome holds nothing. A
   * view's checksum (the ETag, sent before the body) is computed from its keys first, in the same
   * transaction.
   */
  ReadOutcome snapshot(AuthorizedRepository target) {
    RepositorySlug slug = target.slug();
    Connection connection = null;
    int isolation = Connection.TRANSACTION_READ_COMMITTED;
    boolean handedOver = false;
    try {
      connection = dataSource.getConnection();
      isolation = connection.getTransactionIsolation();
      connection.setAutoCommit(false);
      connection.setReadOnly(true);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      Optional<String> viewer = CallerViews.viewer(connection, target);
      try (PreparedStatement statement = connection.prepareStatement(HEAD)) {
        statement.setString(1, slug.key());
        try (ResultSet row = statement.executeQuery()) {
          if (!row.next()) {
            return new ReadOutcome.NotFound();
          }
          String repo = row.getString(2);
          String checksum = row.getString(4);
          if (viewer.isPresent()) {
            checksum =
                view(connection, slug, viewer.get())
                    .map(View::checksum)
                    .orElseThrow(() -> new IllegalStateException("a repository row vanished"));
          }
          SnapshotStream body =
              new SnapshotStream(
                  connection,
                  isolation,
                  viewer,
                  row.getLong(1),
                  organizationOf(repo),
                  repo,
                  row.getLong(3),
                  Timestamps.format(row.getObject(5, OffsetDateTime.class).toInstant()),
                  checksum);
          handedOver = true;
          return new ReadOutcome.Snapshot(body);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    } finally {
      if (connection != null && !handedOver) {
        endSnapshotTransaction(connection, isolation);
      }
    }
  }

  /** Ends a snapshot's transaction, puts the connection back as it was, and returns it. */
  static void endSnapshotTransaction(Connection connection, int isolation) {
    try (connection) {
      if (!connection.getAutoCommit()) {
        connection.rollback();
        connection.setAutoCommit(true);
      }
      connection.setReadOnly(false);
      connection.setTransactionIsolation(isolation);
    } catch (SQLException e) {
      // The pool replaces a connection that cannot be reset; nothing of the answer is lost.
      LOG.warn("A full read's database connection could not be reset; the pool replaces it");
    }
  }

  /**
   * The cheap question first: a client that is up to date costs one row. Empty when the caller must
   * read on ({@code ifNoneMatch} absent or not the current checksum).
   */
  private static Optional<ReadOutcome> unchanged(
      Connection connection, RepositorySlug slug, String ifNoneMatch) throws SQLException {
    if (ifNoneMatch == null) {
      return Optional.empty();
    }
    try (PreparedStatement statement = connection.prepareStatement(CHECKSUM)) {
      statement.setString(1, slug.key());
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          return Optional.of(new ReadOutcome.NotFound());
        }
        if (ETags.matches(ifNoneMatch, row.getString(1))) {
          return Optional.of(new ReadOutcome.NotModified(row.getString(1)));
        }
        return Optional.empty();
      }
    }
  }

  /**
   * The keys written after {@code afterVersion}, once the repository's version is above it (empty
   * until then). Every key's row remembers the version that last wrote it, tombstones included, so
   * any version up to the current one can be answered; a version beyond it (a client of another
   * database, or of a repository deleted and created again) is a reset. A caller who reads a view
   * gets the keys stamped after the version as they are in the view (a key stamped by a change
   * still waiting comes as the caller already has it) and the view's checksum.
   */
  Optional<VersionChanges> changesAfter(AuthorizedRepository target, long afterVersion) {
    RepositorySlug slug = target.slug();
    try (Connection connection = dataSource.getConnection()) {
      Optional<String> viewer = CallerViews.viewer(connection, target);
      if (viewer.isPresent()) {
        return view(connection, slug, viewer.get())
            .map(view -> view.changesAfter(afterVersion))
            .orElseGet(() -> changesAfterNothing(afterVersion));
      }
      try (PreparedStatement statement = connection.prepareStatement(CHANGES_AFTER)) {
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
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read repository " + slug, e);
    }
  }

  /** A never-written repository's answer: nothing while the client has nothing, else a reset. */
  private static Optional<VersionChanges> changesAfterNothing(long afterVersion) {
    return afterVersion > 0
        ? Optional.of(VersionChanges.reset(0, Checksums.EMPTY))
        : Optional.empty();
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

  /**
   * The caller's hashes view; for a never-written repository the empty one (version 0, empty
   * checksum).
   */
  HashesView hashesOrEmpty(AuthorizedRepository target) {
    RepositorySlug slug = target.slug();
    try (Connection connection = dataSource.getConnection()) {
      Optional<String> viewer = CallerViews.viewer(connection, target);
      if (viewer.isPresent()) {
        return view(connection, slug, viewer.get())
            .map(View::hashes)
            .orElseGet(() -> new HashesView(0, Checksums.EMPTY, Map.of(), Map.of()));
      }
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

  /**
   * The view {@code viewer} reads of the repository ({@link CallerViews}): its version, and each
   * key as the view has it, with the version that last stamped the key and its author. Empty when
   * the repository was never written. On {@code connection} as it is, so inside a caller's
   * transaction (a write's, under its lock) it reads what that transaction sees.
   */
  static Optional<View> view(Connection connection, RepositorySlug slug, String viewer)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(VIEW)) {
      statement.setString(1, viewer);
      statement.setString(2, slug.key());
      statement.setString(3, slug.key());
      try (ResultSet rows = statement.executeQuery()) {
        if (!rows.next() || rows.getInt(1) != 0) {
          return Optional.empty();
        }
        long version = rows.getLong(2);
        Map<String, String> live = new LinkedHashMap<>();
        Map<String, String> deleted = new LinkedHashMap<>();
        Map<String, Long> stamped = new LinkedHashMap<>();
        Map<String, String> authors = new LinkedHashMap<>();
        while (rows.next()) {
          String key = rows.getString(3);
          (rows.getBoolean(5) ? deleted : live).put(key, rows.getString(4));
          stamped.put(key, rows.getLong(6));
          authors.put(key, rows.getString(7));
        }
        return Optional.of(new View(version, live, deleted, stamped, authors));
      }
    }
  }

  /** A caller's view of a repository, keys in UTF-8 byte order. */
  record View(
      long version,
      Map<String, String> live,
      Map<String, String> deleted,
      Map<String, Long> stamped,
      Map<String, String> authors) {

    /** The view's checksum, computed as the repository's is from its live keys. */
    String checksum() {
      return Checksums.ofRepository(live);
    }

    HashesView hashes() {
      return new HashesView(version, checksum(), live, deleted);
    }

    Optional<VersionChanges> changesAfter(long afterVersion) {
      if (afterVersion > version) {
        return Optional.of(VersionChanges.reset(version, checksum()));
      }
      if (afterVersion == version) {
        return Optional.empty();
      }
      Map<String, String> changed = new LinkedHashMap<>();
      Map<String, String> gone = new LinkedHashMap<>();
      Map<String, String> by = new LinkedHashMap<>();
      stamped.forEach(
          (key, stamp) -> {
            if (stamp > afterVersion) {
              if (live.containsKey(key)) {
                changed.put(key, live.get(key));
                by.put(key, authors.get(key));
              } else {
                gone.put(key, deleted.get(key));
              }
            }
          });
      return Optional.of(VersionChanges.of(version, checksum(), changed, gone, by));
    }
  }

  /** {@code TMEM_ORGANIZATION}, else the repository's owner as spelled by its first write. */
  private String organizationOf(String repo) {
    return config.organization().orElseGet(() -> repo.substring(0, repo.indexOf('/')));
  }
}
