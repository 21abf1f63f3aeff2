package dev.teammemory.server.stores;

import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.auth.Visibility;
import dev.teammemory.server.database.PostgresArrays;
import dev.teammemory.server.memory.CallerViews;
import dev.teammemory.server.memory.MemoryRow;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The Memory Stores API's reads, each one SQL statement on its own connection (one snapshot, no
 * session or entities, like {@code team_memory}'s reads). Keys are compared as UTF-8 bytes ({@code
 * COLLATE "C"}), which is the order of paths too, since every path is {@code "/" + key}.
 */
@ApplicationScoped
public class StoreReader {

  private static final String STORE_COLUMNS =
      "r.id, r.store_id, r.slug, r.store_name, r.store_description, r.store_metadata,"
          + " r.created_at, r.store_updated_at, r.archived_at";

  private static final int STORE_COLUMN_COUNT = 9;

  /** A memory's columns; the content is the 7th, NULL in the basic view. */
  private static final String MEMORY_COLUMNS =
      "e.memory_id, e.entry_key, e.checksum, e.size_bytes, e.created_at, e.updated_at, %s,"
          + " (SELECT max(v.id) FROM memory_entry_version v"
          + "  WHERE v.repository_id = e.repository_id AND v.memory_id = e.memory_id"
          + "  AND v.redacted_at IS NULL), e.updated_by";

  private static final String VERSION_COLUMNS =
      "v.id, v.memory_id, v.operation, v.created_at, v.entry_key, v.checksum,"
          + " octet_length(v.content), %s, v.author, v.redacted_at, v.redacted_by";

  private final DataSource dataSource;

  @Inject
  StoreReader(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The store with this id, if one has it. */
  public Optional<StoreRow> store(String storeId) {
    String sql = "SELECT " + STORE_COLUMNS + " FROM repository r WHERE r.store_id = ?";
    return query(
        Optional.empty(),
        sql,
        (statement, first) -> statement.setString(first, storeId),
        rows -> rows.next() ? Optional.of(store(rows)) : Optional.empty());
  }

  /**
   * Up to {@code limit} of the stores a caller can see, newest first (by repository row), from the
   * one after {@code afterRepositoryId} when given; archived ones only when asked for. The query
   * starts from what the caller can see (the repositories' unique keys, their owners' index), so
   * that it costs what the caller can see, whatever else the server holds.
   */
  List<StoreRow> stores(
      Visibility visible,
      boolean includeArchived,
      Optional<Instant> createdFrom,
      Optional<Instant> createdUntil,
      Optional<Long> afterRepositoryId,
      int limit) {
    StringBuilder sql =
        new StringBuilder("SELECT " + STORE_COLUMNS + " FROM repository r WHERE TRUE");
    List<Object> parameters = new ArrayList<>();
    if (visible instanceof Visibility.Some some) {
      List<String> shown = new ArrayList<>();
      if (!some.slugKeys().isEmpty()) {
        shown.add("r.slug_key = ANY (CAST(? AS text[]))");
        parameters.add(PostgresArrays.textArray(some.slugKeys()));
      }
      if (!some.ownerKeys().isEmpty()) {
        shown.add("split_part(r.slug_key, '/', 1) = ANY (CAST(? AS text[]))");
        parameters.add(PostgresArrays.textArray(some.ownerKeys()));
      }
      sql.append(shown.isEmpty() ? " AND FALSE" : " AND (" + String.join(" OR ", shown) + ")");
    }
    if (!includeArchived) {
      sql.append(" AND r.archived_at IS NULL");
    }
    createdFrom.ifPresent(
        at -> {
          sql.append(" AND r.created_at >= ?");
          parameters.add(OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
        });
    createdUntil.ifPresent(
        at -> {
          sql.append(" AND r.created_at <= ?");
          parameters.add(OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
        });
    afterRepositoryId.ifPresent(
        id -> {
          sql.append(" AND r.id < ?");
          parameters.add(id);
        });
    sql.append(" ORDER BY r.id DESC LIMIT ?");
    parameters.add(limit);
    return query(
        Optional.empty(),
        sql.toString(),
        (statement, first) -> bind(statement, first, parameters),
        rows -> {
          List<StoreRow> stores = new ArrayList<>();
          while (rows.next()) {
            stores.add(store(rows));
          }
          return stores;
        });
  }

  /** A store and, when it has one live by that id, a memory of it. */
  record StoreWithMemory(StoreRow store, Optional<MemoryRow> memory) {
    StoreWithMemory {
      Objects.requireNonNull(store, "store is null");
      Objects.requireNonNull(memory, "memory is null");
    }
  }

  /**
   * The store with this id and its live memory {@code memoryId}, in one statement: a retrieve is
   * two small indexed reads, and a second round trip to PostgreSQL cost as much as either read.
   */
  Optional<StoreWithMemory> storeWithMemory(String storeId, String memoryId, boolean withContent) {
    String sql =
        "SELECT "
            + STORE_COLUMNS
            + ", "
            + MEMORY_COLUMNS.formatted(withContent ? "e.content" : "NULL")
            + " FROM repository r LEFT JOIN memory_entry e"
            + " ON e.repository_id = r.id AND e.memory_id = ? AND NOT e.deleted"
            + " WHERE r.store_id = ?";
    return query(
        Optional.empty(),
        sql,
        (statement, first) -> {
          statement.setString(first, memoryId);
          statement.setString(first + 1, storeId);
        },
        rows -> {
          if (!rows.next()) {
            return Optional.empty();
          }
          StoreRow store = store(rows);
          Optional<MemoryRow> memory =
              rows.getString(STORE_COLUMN_COUNT + 1) == null
                  ? Optional.empty()
                  : Optional.of(memory(rows, STORE_COLUMN_COUNT + 1));
          return Optional.of(new StoreWithMemory(store, memory));
        });
  }

  /**
   * The live memory {@code memoryId} of the repository as {@code viewer} sees it ({@link
   * CallerViews}): a retrieve by a caller who reads a view, read again after {@link
   * #storeWithMemory} found the store.
   */
  Optional<MemoryRow> memory(
      String viewer, long repositoryId, String memoryId, boolean withContent) {
    String sql =
        "SELECT "
            + MEMORY_COLUMNS.formatted(withContent ? "e.content" : "NULL")
            + " FROM memory_entry e"
            + " WHERE e.repository_id = ? AND e.memory_id = ? AND NOT e.deleted";
    return query(
        Optional.of(viewer),
        sql,
        (statement, first) -> {
          statement.setLong(first, repositoryId);
          statement.setString(first + 1, memoryId);
        },
        rows -> rows.next() ? Optional.of(memory(rows, 1)) : Optional.empty());
  }

  /**
   * Up to {@code limit} live memories whose keys start with {@code keyPrefix}, in key order
   * (reversed when {@code descending}), after the item {@code afterKey} when given. At depth 1 only
   * the prefix's direct children are memories; deeper ones are represented by their folder.
   */
  List<ListedItem> memories(
      Optional<String> viewer,
      long repositoryId,
      String keyPrefix,
      boolean childrenOnly,
      boolean descending,
      Optional<String> afterKey,
      int limit,
      boolean withContent) {
    String columns = MEMORY_COLUMNS.formatted(withContent ? "e.content" : "NULL");
    String direction = descending ? "DESC" : "ASC";
    String after = afterKey.isPresent() ? (descending ? " AND item < ?" : " AND item > ?") : "";
    String sql;
    if (!childrenOnly) {
      sql =
          "SELECT * FROM (SELECT FALSE AS folder, e.entry_key COLLATE \"C\" AS item, "
              + columns
              + " FROM memory_entry e"
              + " WHERE e.repository_id = ? AND NOT e.deleted AND starts_with(e.entry_key, ?)) x"
              + " WHERE TRUE"
              + after
              + " ORDER BY item "
              + direction
              + " LIMIT ?";
    } else {
      // The first segment after the prefix names the child: the memory itself when it is the last
      // segment, else the folder that holds it (once, whatever it holds).
      sql =
          "SELECT * FROM (SELECT DISTINCT ON (item) * FROM ("
              + "SELECT strpos(rest, '/') > 0 AS folder,"
              + " (CASE WHEN strpos(rest, '/') = 0 THEN e.entry_key"
              + "  ELSE ? || split_part(rest, '/', 1) || '/' END) COLLATE \"C\" AS item, "
              + columns
              + " FROM (SELECT *, substr(entry_key, char_length(?) + 1) AS rest"
              + "  FROM memory_entry WHERE repository_id = ? AND NOT deleted"
              + "  AND starts_with(entry_key, ?)) e) children"
              + " ORDER BY item) x"
              + " WHERE TRUE"
              + after
              + " ORDER BY item "
              + direction
              + " LIMIT ?";
    }
    return query(
        viewer,
        sql,
        (statement, first) -> {
          int index = first;
          if (childrenOnly) {
            statement.setString(index++, keyPrefix);
            statement.setString(index++, keyPrefix);
          }
          statement.setLong(index++, repositoryId);
          statement.setString(index++, keyPrefix);
          if (afterKey.isPresent()) {
            statement.setString(index++, afterKey.get());
          }
          statement.setInt(index, limit);
        },
        rows -> {
          List<ListedItem> items = new ArrayList<>();
          while (rows.next()) {
            items.add(
                rows.getBoolean(1)
                    ? new ListedItem.Folder(rows.getString(2))
                    : new ListedItem.Memory(memory(rows, 3)));
          }
          return items;
        });
  }

  /**
   * Up to {@code limit} versions of the store's memories, newest first, older than the version row
   * {@code beforeRowId} when given. The tombstone a rename leaves at the old key belongs to no
   * memory and is not listed.
   */
  List<VersionRow> versions(
      Optional<String> viewer,
      long repositoryId,
      VersionFilter filter,
      Optional<Long> beforeRowId,
      int limit) {
    return versions(viewer, repositoryId, filter, beforeRowId, limit, 0);
  }

  /** As above, and only rows from {@code fromRowId} on (a page read again, with contents). */
  List<VersionRow> versions(
      Optional<String> viewer,
      long repositoryId,
      VersionFilter filter,
      Optional<Long> beforeRowId,
      int limit,
      long fromRowId) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT "
                + VERSION_COLUMNS.formatted(filter.withContent() ? "v.content" : "NULL")
                + " FROM memory_entry_version v WHERE v.repository_id = ?"
                + " AND v.memory_id IS NOT NULL AND v.operation <> 'moved'");
    List<Object> parameters = new ArrayList<>();
    parameters.add(repositoryId);
    filter
        .memoryId()
        .ifPresent(
            id -> {
              sql.append(" AND v.memory_id = ?");
              parameters.add(id);
            });
    filter
        .operation()
        .ifPresent(
            operation -> {
              sql.append(" AND v.operation = ?");
              parameters.add(operation);
            });
    filter
        .createdFrom()
        .ifPresent(
            at -> {
              sql.append(" AND v.created_at >= ?");
              parameters.add(OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
            });
    filter
        .createdUntil()
        .ifPresent(
            at -> {
              sql.append(" AND v.created_at <= ?");
              parameters.add(OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
            });
    beforeRowId.ifPresent(
        id -> {
          sql.append(" AND v.id < ?");
          parameters.add(id);
        });
    if (fromRowId > 0) {
      sql.append(" AND v.id >= ?");
      parameters.add(fromRowId);
    }
    sql.append(" ORDER BY v.id DESC LIMIT ?");
    parameters.add(limit);
    return query(
        viewer,
        sql.toString(),
        (statement, first) -> bind(statement, first, parameters),
        rows -> {
          List<VersionRow> versions = new ArrayList<>();
          while (rows.next()) {
            versions.add(version(rows));
          }
          return versions;
        });
  }

  /** One version of the store's memories. */
  Optional<VersionRow> version(
      Optional<String> viewer, long repositoryId, long rowId, boolean withContent) {
    String sql =
        "SELECT "
            + VERSION_COLUMNS.formatted(withContent ? "v.content" : "NULL")
            + " FROM memory_entry_version v WHERE v.repository_id = ? AND v.id = ?"
            + " AND v.memory_id IS NOT NULL AND v.operation <> 'moved'";
    return query(
        viewer,
        sql,
        (statement, first) -> {
          statement.setLong(first, repositoryId);
          statement.setLong(first + 1, rowId);
        },
        rows -> rows.next() ? Optional.of(version(rows)) : Optional.empty());
  }

  private static StoreRow store(ResultSet rows) throws SQLException {
    return new StoreRow(
        rows.getLong(1),
        rows.getString(2),
        RepositorySlug.parse(rows.getString(3))
            .orElseThrow(() -> new IllegalStateException("a repository row has a bad slug")),
        Optional.ofNullable(rows.getString(4)),
        rows.getString(5),
        rows.getString(6),
        instant(rows, 7).orElseThrow(),
        instant(rows, 8),
        instant(rows, 9));
  }

  private static MemoryRow memory(ResultSet rows, int first) throws SQLException {
    return new MemoryRow(
        rows.getString(first),
        rows.getString(first + 1),
        rows.getString(first + 2),
        rows.getInt(first + 3),
        rows.getLong(first + 7),
        instant(rows, first + 4).orElseThrow(),
        instant(rows, first + 5).orElseThrow(),
        rows.getString(first + 8),
        Optional.ofNullable(rows.getString(first + 6)));
  }

  private static VersionRow version(ResultSet rows) throws SQLException {
    return new VersionRow(
        rows.getLong(1),
        rows.getString(2),
        rows.getString(3),
        instant(rows, 4).orElseThrow(),
        rows.getString(5),
        rows.getString(6),
        rows.getInt(7),
        Optional.ofNullable(rows.getString(8)),
        rows.getString(9),
        instant(rows, 10),
        Optional.ofNullable(rows.getString(11)));
  }

  private static Optional<Instant> instant(ResultSet rows, int column) throws SQLException {
    OffsetDateTime value = rows.getObject(column, OffsetDateTime.class);
    return value == null ? Optional.empty() : Optional.of(value.toInstant());
  }

  private static void bind(PreparedStatement statement, int first, List<Object> parameters)
      throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      statement.setObject(first + i, parameters.get(i));
    }
  }

  /** Binds a statement's own parameters, the first of them at index {@code first}. */
  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement statement, int first) throws SQLException;
  }

  @FunctionalInterface
  private interface Reading<T> {
    T read(ResultSet rows) throws SQLException;
  }

  /**
   * Runs {@code sql}, over the view of {@code viewer} when one is given ({@link CallerViews}: the
   * viewer is then the first parameter, and the statement's own follow).
   */
  private <T> T query(Optional<String> viewer, String sql, Binder binder, Reading<T> reading) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(viewer.isEmpty() ? sql : CallerViews.over(sql))) {
      if (viewer.isPresent()) {
        statement.setString(1, viewer.get());
      }
      binder.bind(statement, viewer.isEmpty() ? 1 : 2);
      try (ResultSet rows = statement.executeQuery()) {
        return reading.read(rows);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the memory stores", e);
    }
  }
}
