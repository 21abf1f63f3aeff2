package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.auth.Visibility;
import dev.teammemory.server.database.PostgresArrays;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What the console shows of a repository's team memory, each answer one SQL statement of bounded
 * size: a page of rows (never a whole history), and of each listed memory only the head a summary
 * needs. Search is PostgreSQL's built-in full-text search over each memory's stored {@code
 * search_document} (path, frontmatter name and description weighted above the text; GIN-indexed,
 * ranked with {@code ts_rank} without recomputing it), not a scan in Java. The caller has passed
 * the read check; a repository without team memory answers as empty.
 */
@ApplicationScoped
public class MemoryBrowser {

  /** How much of a memory's text a listing reads: enough for its frontmatter. */
  public static final int HEAD_CHARACTERS = 2_000;

  /** The words searched for, parsed once per statement (an init plan, not once per row). */
  private static final String QUERY = "(SELECT websearch_to_tsquery('english'::regconfig, ?))";

  /**
   * The path branch: the path starts with what was typed, case-insensitively, as a range over
   * {@code lower(path)} in byte order that {@code memory_entry_path_prefix_idx} answers (U+10FFFF
   * sorts after every character a path holds).
   */
  private static final String PATH_STARTS_WITH =
      "(lower(e.entry_key) ~>=~ lower(?) AND lower(e.entry_key) ~<~ (lower(?) || U&'\\+10FFFF'))";

  private static final String SUMMARY_COLUMNS =
      "e.entry_key, e.size_bytes, e.updated_by, e.updated_at, e.version, left(e.content, "
          + HEAD_CHARACTERS
          + ")";

  private final DataSource dataSource;
  private final CallerViews views;

  @Inject
  MemoryBrowser(DataSource dataSource, CallerViews views) {
    this.dataSource = dataSource;
    this.views = views;
  }

  /** A repository with team memory. */
  public record RepositorySummary(String slug, int memories, long bytes, Instant lastChange) {}

  /** One live memory as a listing shows it, with the head of its text for its frontmatter. */
  public record MemorySummary(
      String path, long bytes, String author, Instant updatedAt, long version, String head) {}

  /** A memory as it is now; a deleted one has empty content. */
  public record MemoryText(
      String path,
      String content,
      String checksum,
      long bytes,
      String author,
      Instant updatedAt,
      long version,
      boolean deleted) {}

  /** One kept version of a memory, without its text. */
  public record VersionSummary(
      long version,
      String author,
      Instant createdAt,
      long bytes,
      boolean deleted,
      String operation) {}

  /** One kept version with its text. */
  public record VersionText(
      long version, String author, Instant createdAt, String content, boolean deleted) {}

  /** One change of a repository's activity. */
  public record Change(
      String path,
      long version,
      String author,
      Instant createdAt,
      String operation,
      boolean deleted,
      long bytes) {}

  /** A page of rows and whether another follows it. */
  public record Page<T>(List<T> rows, boolean more) {
    public Page {
      rows = List.copyOf(requireNonNull(rows, "rows is null"));
    }
  }

  /**
   * The repositories with team memory that {@code visible} lets the caller read, by name: the rule
   * of the store listing, starting from what the caller can see.
   */
  public Page<RepositorySummary> repositories(Visibility visible, int offset, int size) {
    StringBuilder sql =
        new StringBuilder(
            "SELECT r.slug, r.entry_count, r.total_bytes, r.last_modified FROM repository r"
                + " WHERE r.version > 0");
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
    sql.append(" ORDER BY r.slug_key LIMIT ? OFFSET ?");
    parameters.add(size + 1);
    parameters.add(offset);
    return page(
        sql.toString(),
        parameters,
        size,
        rows ->
            new RepositorySummary(
                rows.getString(1), rows.getInt(2), rows.getLong(3), instant(rows, 4)));
  }

  /** A page of the repository's live memories in path order (UTF-8 bytes), after {@code after}. */
  public Page<MemorySummary> memories(AuthorizedRepository target, String after, int size) {
    return viewedPage(
        target,
        "SELECT "
            + SUMMARY_COLUMNS
            + " FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
            + " WHERE r.slug_key = ? AND NOT e.deleted AND e.entry_key COLLATE \"C\" > ?"
            + " ORDER BY e.entry_key COLLATE \"C\" LIMIT ?",
        List.of(target.slug().key(), after, size + 1),
        size,
        MemoryBrowser::summary);
  }

  /**
   * The live memories matching {@code query} (words, "phrases", -exclusions, as a web search) in
   * their path, frontmatter name and description, or text, best first (a path starting with the
   * query as typed first of all, then a hit in path or name, then in a description, then in the
   * text alone), a page at a time. One statement whichever branch matches: the full-text branch and
   * the path branch each have their own index.
   */
  public Page<MemorySummary> search(
      AuthorizedRepository target, String query, int offset, int size) {
    return viewedPage(
        target,
        "SELECT "
            + SUMMARY_COLUMNS
            + " FROM memory_entry e"
            + " WHERE e.repository_id = (SELECT r.id FROM repository r WHERE r.slug_key = ?)"
            + " AND NOT e.deleted"
            + " AND (e.search_document @@ "
            + QUERY
            + " OR "
            + PATH_STARTS_WITH
            + ") ORDER BY ts_rank(e.search_document, "
            + QUERY
            + ") + CASE WHEN "
            + PATH_STARTS_WITH
            + " THEN 1 ELSE 0 END DESC, e.entry_key COLLATE \"C\" LIMIT ? OFFSET ?",
        List.of(target.slug().key(), query, query, query, query, query, query, size + 1, offset),
        size,
        MemoryBrowser::summary);
  }

  /** The memory at {@code path}, live or deleted; empty when the key was never written. */
  public Optional<MemoryText> memory(AuthorizedRepository target, String path) {
    List<MemoryText> found =
        viewedPage(
                target,
                "SELECT e.entry_key, e.content, e.checksum, e.size_bytes, e.updated_by,"
                    + " e.updated_at, e.version, e.deleted"
                    + " FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
                    + " WHERE r.slug_key = ? AND e.entry_key = ?",
                List.of(target.slug().key(), path),
                1,
                rows ->
                    new MemoryText(
                        rows.getString(1),
                        rows.getString(2),
                        rows.getString(3),
                        rows.getLong(4),
                        rows.getString(5),
                        instant(rows, 6),
                        rows.getLong(7),
                        rows.getBoolean(8)))
            .rows();
    return found.stream().findFirst();
  }

  /** A page of the kept versions of a memory, newest first, without their texts. */
  public Page<VersionSummary> versions(
      AuthorizedRepository target, String path, int offset, int size) {
    return viewedPage(
        target,
        "SELECT v.version, v.author, v.created_at, octet_length(v.content), v.deleted,"
            + " coalesce(v.operation, CASE WHEN v.deleted THEN 'deleted' ELSE 'modified' END)"
            + " FROM memory_entry_version v JOIN repository r ON r.id = v.repository_id"
            + " WHERE r.slug_key = ? AND v.entry_key = ? AND v.redacted_at IS NULL"
            + " ORDER BY v.version DESC LIMIT ? OFFSET ?",
        List.of(target.slug().key(), path, size + 1, offset),
        size,
        rows ->
            new VersionSummary(
                rows.getLong(1),
                rows.getString(2),
                instant(rows, 3),
                rows.getLong(4),
                rows.getBoolean(5),
                rows.getString(6)));
  }

  /** The kept versions {@code versions} of a memory with their texts (for a diff: two). */
  public List<VersionText> versionTexts(
      AuthorizedRepository target, String path, List<Long> versions) {
    if (versions.isEmpty() || versions.size() > 2) {
      throw new IllegalArgumentException("one or two versions, not " + versions.size());
    }
    return viewedPage(
            target,
            "SELECT v.version, v.author, v.created_at, v.content, v.deleted"
                + " FROM memory_entry_version v JOIN repository r ON r.id = v.repository_id"
                + " WHERE r.slug_key = ? AND v.entry_key = ? AND v.redacted_at IS NULL"
                + " AND v.version = ANY (CAST(? AS bigint[])) ORDER BY v.version",
            List.of(
                target.slug().key(),
                path,
                "{" + String.join(",", versions.stream().map(String::valueOf).toList()) + "}"),
            2,
            rows ->
                new VersionText(
                    rows.getLong(1),
                    rows.getString(2),
                    instant(rows, 3),
                    rows.getString(4),
                    rows.getBoolean(5)))
        .rows();
  }

  /** A page of who changed what, newest first, deletes and restores included. */
  public Page<Change> activity(AuthorizedRepository target, int offset, int size) {
    return viewedPage(
        target,
        "SELECT v.entry_key, v.version, v.author, v.created_at,"
            + " coalesce(v.operation, CASE WHEN v.deleted THEN 'deleted' ELSE 'modified' END),"
            + " v.deleted, octet_length(v.content)"
            + " FROM memory_entry_version v JOIN repository r ON r.id = v.repository_id"
            + " WHERE r.slug_key = ? AND v.redacted_at IS NULL"
            + " ORDER BY v.version DESC, v.id DESC LIMIT ? OFFSET ?",
        List.of(target.slug().key(), size + 1, offset),
        size,
        rows ->
            new Change(
                rows.getString(1),
                rows.getLong(2),
                rows.getString(3),
                instant(rows, 4),
                rows.getString(5),
                rows.getBoolean(6),
                rows.getLong(7)));
  }

  /** The repository as a listing of repositories shows it; empty when it has no team memory. */
  public Optional<RepositorySummary> repository(RepositorySlug slug) {
    return page(
            "SELECT r.slug, r.entry_count, r.total_bytes, r.last_modified FROM repository r"
                + " WHERE r.slug_key = ? AND r.version > 0",
            List.of(slug.key()),
            1,
            rows ->
                new RepositorySummary(
                    rows.getString(1), rows.getInt(2), rows.getLong(3), instant(rows, 4)))
        .rows()
        .stream()
        .findFirst();
  }

  private static MemorySummary summary(ResultSet rows) throws SQLException {
    return new MemorySummary(
        rows.getString(1),
        rows.getLong(2),
        rows.getString(3),
        instant(rows, 4),
        rows.getLong(5),
        rows.getString(6));
  }

  private static Instant instant(ResultSet rows, int column) throws SQLException {
    return rows.getObject(column, OffsetDateTime.class).toInstant();
  }

  private interface RowReader<T> {
    T read(ResultSet rows) throws SQLException;
  }

  /**
   * {@link #page} over the target's caller's view of the repository ({@link CallerViews}): with
   * review required, someone who does not review sees the approved memories and their own waiting
   * changes, as through the APIs; anyone else the statement as written.
   */
  private <T> Page<T> viewedPage(
      AuthorizedRepository target,
      String sql,
      List<Object> parameters,
      int size,
      RowReader<T> reader) {
    Optional<String> viewer = views.viewer(target);
    if (viewer.isEmpty()) {
      return page(sql, parameters, size, reader);
    }
    List<Object> viewed = new ArrayList<>(parameters.size() + 1);
    viewed.add(viewer.get());
    viewed.addAll(parameters);
    return page(CallerViews.over(sql), viewed, size, reader);
  }

  private <T> Page<T> page(String sql, List<Object> parameters, int size, RowReader<T> reader) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.size(); i++) {
        statement.setObject(i + 1, parameters.get(i));
      }
      try (ResultSet rows = statement.executeQuery()) {
        List<T> read = new ArrayList<>();
        while (rows.next()) {
          read.add(reader.read(rows));
        }
        boolean more = read.size() > size;
        return new Page<>(more ? read.subList(0, size) : read, more);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the team memory for the console", e);
    }
  }
}
