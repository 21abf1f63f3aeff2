package dev.teammemory.server.database;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The schema migrations are additive: rows written before the Memory Stores migration, and rows a
 * replica of the previous release writes after it (with the first release's column lists, as its
 * Hibernate entities do), all get store ids, memory ids and version operations; the previous
 * release's permission cache, keyed by user, keeps working beside the one keyed by token.
 */
class RollingUpgradeTest {

  private static EmbeddedPostgres postgres;
  private static DataSource database;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    database = postgres.getPostgresDatabase();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    postgres.close();
  }

  @Test
  void rowsOfThePreviousReleaseGetIdsAndOperationsBeforeAndAfterTheUpgrade() throws SQLException {
    migrate("1");
    execute(previousReleaseWrite(1, "acme/widgets", "a.md", 1, false));
    execute(previousReleaseWrite(1, "acme/widgets", "a.md", 2, false));
    execute(previousReleaseWrite(1, "acme/widgets", "b.md", 3, false));

    migrate("latest");
    // A replica of the previous release keeps writing: a new key, a deletion, a revival.
    execute(previousReleaseWrite(1, "acme/widgets", "c.md", 4, false));
    execute(previousReleaseWrite(1, "acme/widgets", "b.md", 5, true));
    execute(previousReleaseWrite(1, "acme/widgets", "b.md", 6, false));

    assertThat(single("SELECT store_id FROM repository")).matches("memstore_[0-9a-f]{32}");
    assertThat(column("SELECT memory_id FROM memory_entry ORDER BY entry_key"))
        .hasSize(3)
        .allMatch(id -> id.matches("mem_[0-9a-f]{32}"))
        .doesNotHaveDuplicates();
    assertThat(
            column(
                "SELECT entry_key || ' ' || version || ' ' || operation FROM memory_entry_version"
                    + " ORDER BY version"))
        .containsExactly(
            "a.md 1 created",
            "a.md 2 modified",
            "b.md 3 created",
            "c.md 4 created",
            "b.md 5 deleted",
            "b.md 6 created");
    assertThat(
            single(
                "SELECT count(*) FROM memory_entry_version v JOIN memory_entry e"
                    + " ON e.repository_id = v.repository_id AND e.entry_key = v.entry_key"
                    + " WHERE v.memory_id = e.memory_id"))
        .as("every version names its entry's memory")
        .isEqualTo("6");
  }

  @Test
  void thePreviousReleasesPermissionCacheKeepsWorkingBesideThePerTokenOne() throws SQLException {
    migrate("latest");

    // What the previous release runs, keyed by user.
    execute(
        "INSERT INTO repo_access (user_id, slug_key, permission, checked_at, expires_at)"
            + " VALUES ('github:42', 'acme/widgets', 'WRITE', now(), now() + interval '3 minutes')"
            + " ON CONFLICT (user_id, slug_key) DO UPDATE SET permission = EXCLUDED.permission",
        "INSERT INTO repo_listing (user_id, checked_at, expires_at)"
            + " VALUES ('github:42', now(), now() + interval '3 minutes')"
            + " ON CONFLICT (user_id) DO UPDATE SET expires_at = EXCLUDED.expires_at");
    // What this release runs, keyed by token.
    execute(
        "INSERT INTO token_repo_access (token_digest, slug_key, permission, checked_at,"
            + " expires_at) VALUES ('"
            + "ab".repeat(32)
            + "', 'acme/widgets', 'READ', now(),"
            + " now() + interval '3 minutes')",
        "INSERT INTO token_repo_listing (token_digest, checked_at, expires_at)"
            + " VALUES ('"
            + "ab".repeat(32)
            + "', now(), now() + interval '3 minutes')");

    assertThat(single("SELECT permission FROM repo_access WHERE user_id = 'github:42'"))
        .isEqualTo("WRITE");
    assertThat(single("SELECT permission FROM token_repo_access")).isEqualTo("READ");
  }

  /**
   * One write as the first release makes it: the repository row, the entry and its version, with
   * only the columns that release knows.
   */
  private static String[] previousReleaseWrite(
      long repositoryId, String slug, String key, long version, boolean deleted) {
    return new String[] {
      "INSERT INTO repository (id, slug, slug_key, version, checksum, last_modified)"
          + " VALUES (%d, '%s', '%s', %d, 'sha256:x', now())"
              .formatted(repositoryId, slug, slug, version)
          + " ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version",
      "INSERT INTO memory_entry (id, repository_id, entry_key, content, checksum, size_bytes,"
          + " version, deleted, updated_at, updated_by)"
          + " VALUES (nextval('memory_entry_id_seq'), %d, '%s', 'x', 'sha256:x', 1, %d, %s, now(),"
              .formatted(repositoryId, key, version, deleted)
          + " 'alice') ON CONFLICT (repository_id, entry_key) DO UPDATE"
          + " SET version = EXCLUDED.version, deleted = EXCLUDED.deleted",
      "INSERT INTO memory_entry_version (id, repository_id, entry_key, version, content, checksum,"
          + " deleted, author, created_at)"
          + " VALUES (nextval('memory_entry_version_id_seq'), %d, '%s', %d, 'x', 'sha256:x', %s,"
              .formatted(repositoryId, key, version, deleted)
          + " 'alice', now())"
    };
  }

  private static void migrate(String target) {
    Flyway.configure()
        .dataSource(database)
        .locations("classpath:db/migration")
        .target(target)
        .load()
        .migrate();
  }

  private static void execute(String... statements) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  private static List<String> column(String query) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      List<String> values = new ArrayList<>();
      while (rows.next()) {
        values.add(rows.getString(1));
      }
      return values;
    }
  }

  private static String single(String query) throws SQLException {
    List<String> values = column(query);
    assertThat(values).as(query).hasSize(1);
    return values.get(0);
  }
}
