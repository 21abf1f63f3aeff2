package dev.teammemory.server.memory;

import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositorySlug;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What one caller reads of a repository that requires review (issue 27): its view. A reviewer, and
 * every caller of a repository without review, reads the newest state, through the very statements
 * of before (so their answers stay byte for byte as they were). Anyone else reads, for each key:
 *
 * <ul>
 *   <li>their own newest waiting change of the key, when it is newer than the key's approved
 *       version (an author sees what they wrote, and deletes what they deleted);
 *   <li>else the key's approved version (an approved delete is a deleted key);
 *   <li>else nothing: a memory never approved is not in the view, neither live nor deleted.
 * </ul>
 *
 * <p>A view keeps the repository's version, and each key the version that last stamped it (every
 * change of a view, an approval or a reviewer's write, stamps one), so the {@code after_version}
 * feed answers for views as it does for the newest state, at worst with a key unchanged for the
 * caller. The view's checksum is computed from its keys as the repository's is. The kept versions
 * of waiting or rejected changes are left out of the caller's history, except their own.
 *
 * <p>A view is a statement's text: {@link #over} puts, before a read statement, two common table
 * expressions named as the tables ({@code memory_entry}, {@code memory_entry_version}), so the
 * statement reads the caller's view wherever it names them, unchanged. Inside their own bodies the
 * names are PostgreSQL's tables (a non-recursive common table expression does not see itself or a
 * later one). Both are {@code NOT MATERIALIZED}: PostgreSQL plans them into the statement, so a
 * view reads the repository's rows by the statement's own conditions, never every repository's.
 */
@ApplicationScoped
public class CallerViews {

  private static final String REQUIRED =
      "SELECT 1 FROM review_setting WHERE slug_key = ? AND review = 'required'";

  /**
   * The caller's view of each key. {@code shown} is the version the caller sees; {@code current}
   * says that it is the key's current row (which then has the content, as after a purge the version
   * table may not), else the kept version holds it.
   */
  private static final String VIEWS =
      " memory_entry AS NOT MATERIALIZED ("
          + "SELECT e.id, e.repository_id, e.entry_key,"
          + " CASE WHEN s.current THEN e.content ELSE v.content END AS content,"
          + " CASE WHEN s.current THEN e.checksum ELSE v.checksum END AS checksum,"
          + " CASE WHEN s.current THEN e.size_bytes ELSE octet_length(v.content) END"
          + " AS size_bytes,"
          + " e.version,"
          + " CASE WHEN s.current THEN e.deleted ELSE v.deleted END AS deleted,"
          + " CASE WHEN s.current THEN e.updated_at ELSE v.created_at END AS updated_at,"
          + " CASE WHEN s.current THEN e.updated_by ELSE v.author END AS updated_by,"
          + " CASE WHEN s.current THEN e.memory_id ELSE v.memory_id END AS memory_id,"
          + " CASE WHEN s.current OR v.memory_id = e.memory_id THEN e.created_at"
          + " ELSE v.created_at END AS created_at,"
          + " e.approved_version,"
          // The console's search document: the stored one, or for an older version its words
          // unweighted (ranked by its text alone; a view shows few keys other than the newest).
          + " CASE WHEN s.current THEN e.search_document"
          + " ELSE to_tsvector('english'::regconfig, v.content) END AS search_document"
          + " FROM memory_entry e"
          + " CROSS JOIN LATERAL (SELECT shown.version AS shown,"
          + " shown.version = e.version AS current FROM (SELECT COALESCE("
          + "(SELECT max(c.version) FROM review_change c"
          + " WHERE c.repository_id = e.repository_id AND c.entry_key = e.entry_key"
          + " AND c.status = 'pending' AND c.author = (SELECT author FROM viewer)"
          + " AND c.version > COALESCE(e.approved_version, 0)),"
          + " e.approved_version) AS version) shown) s"
          + " LEFT JOIN memory_entry_version v ON NOT s.current"
          + " AND v.repository_id = e.repository_id AND v.entry_key = e.entry_key"
          + " AND v.version = s.shown AND v.redacted_at IS NULL"
          + " WHERE s.current OR v.id IS NOT NULL),"
          + " memory_entry_version AS NOT MATERIALIZED ("
          + "SELECT * FROM memory_entry_version v WHERE NOT EXISTS ("
          + "SELECT 1 FROM review_change c WHERE c.repository_id = v.repository_id"
          + " AND c.entry_key = v.entry_key AND c.version = v.version"
          + " AND c.status <> 'approved' AND c.author <> (SELECT author FROM viewer))) ";

  private final DataSource dataSource;

  @Inject
  CallerViews(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * {@code statement} (a plain {@code SELECT}) over the caller's view: its first parameter is then
   * the caller's user id ({@link #viewer}), and its own parameters follow.
   */
  public static String over(String statement) {
    return over(statement, "?");
  }

  /** {@link #over} with the user id's parameter spelled {@code parameter} (e.g. {@code ?9}). */
  static String over(String statement, String parameter) {
    return "WITH viewer AS (SELECT CAST(" + parameter + " AS text) AS author)," + VIEWS + statement;
  }

  /**
   * The user whose view the target's caller reads, or empty when they read the newest state (a
   * reviewer, or a repository without review): one indexed row, and none asked for a reviewer.
   */
  public Optional<String> viewer(AuthorizedRepository target) {
    if (target.permission().allowsReview()) {
      return Optional.empty();
    }
    try (Connection connection = dataSource.getConnection()) {
      return viewer(connection, target);
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the review setting of " + target.slug(), e);
    }
  }

  /** {@link #viewer(AuthorizedRepository)} on a connection the caller holds. */
  static Optional<String> viewer(Connection connection, AuthorizedRepository target)
      throws SQLException {
    if (target.permission().allowsReview() || !reviewRequired(connection, target.slug())) {
      return Optional.empty();
    }
    return Optional.of(target.caller().user());
  }

  private static boolean reviewRequired(Connection connection, RepositorySlug slug)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(REQUIRED)) {
      statement.setString(1, slug.key());
      try (ResultSet row = statement.executeQuery()) {
        return row.next();
      }
    }
  }
}
