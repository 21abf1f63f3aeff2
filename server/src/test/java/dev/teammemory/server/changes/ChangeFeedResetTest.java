package dev.teammemory.server.changes;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The change feed by version when the client is ahead of the server: a repository restored from an
 * older backup, or one this database never held. The answer is a reset at once (the evidence that
 * the version went back, issue 24), never a long poll that ends in {@code 304}: a client asking
 * {@code after_version} above the repository's version would otherwise wait for versions the server
 * will give to other writes.
 */
@QuarkusTest
class ChangeFeedResetTest {

  /** The rows of one repository, in the order a restore inserts them. */
  private static final List<String> TABLES =
      List.of("repository", "memory_entry", "memory_entry_version");

  @Inject AgroalDataSource dataSource;

  private static ExtractableResponse<Response> changesAfter(String repo, long version) {
    // The longest wait: an answer that waited would come back as a 304 a minute later.
    return as(READER)
        .queryParam("repo", repo)
        .queryParam("after_version", version)
        .queryParam("wait", 60)
        .get(PATH + "/changes")
        .then()
        .extract();
  }

  @Test
  void afterAVersionARestoredBackupNeverReachedIsAResetToTheBackupsVersion() throws Exception {
    String repo = fresh("feed-restored");
    String backupChecksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");
    String backup = backUp(repo);
    put(repo, entries("a.md", "two"));
    long versionSeen = put(repo, entries("b.md", "three")).jsonPath().getLong("version");
    assertThat(versionSeen).isEqualTo(3);

    restore(repo, backup);
    ExtractableResponse<Response> answer = changesAfter(repo, versionSeen);

    assertThat(answer.statusCode()).isEqualTo(200);
    JsonPath body = answer.jsonPath();
    assertThat(body.getBoolean("reset")).isTrue();
    assertThat(body.getLong("version")).isEqualTo(1);
    assertThat(body.getString("checksum")).isEqualTo(backupChecksum);
    assertThat(body.getMap("changed")).isNull();
  }

  @Test
  void afterAVersionOfARepositoryThisDatabaseNeverHeldIsAResetToVersionZero() {
    String repo = fresh("feed-never-held");

    ExtractableResponse<Response> answer = changesAfter(repo, 7);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.jsonPath().getBoolean("reset")).isTrue();
    assertThat(answer.jsonPath().getLong("version")).isZero();
    assertThat(answer.jsonPath().getString("checksum")).isEqualTo(Checksums.EMPTY);
  }

  @Test
  void atTheRestoredVersionTheFeedWaitsAsUsualAndNamesTheNextWrite() throws Exception {
    String repo = fresh("feed-restored-then-written");
    put(repo, entries("a.md", "one"));
    String backup = backUp(repo);
    put(repo, entries("a.md", "two"));
    restore(repo, backup);

    put(repo, entries("c.md", "after the restore"));
    ExtractableResponse<Response> answer = changesAfter(repo, 1);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.jsonPath().<Object>get("reset")).isNull();
    assertThat(answer.jsonPath().getLong("version")).isEqualTo(2);
    assertThat(answer.jsonPath().getMap("changed")).containsOnlyKeys("c.md");
  }

  /** Copies the repository's rows aside, as a backup taken now; returns the copies' prefix. */
  private String backUp(String repo) throws SQLException {
    // Short: PostgreSQL cuts names at 63 bytes, and the table names must stay apart.
    String prefix = "backup_" + Long.toHexString(System.nanoTime());
    try (Connection connection = dataSource.getConnection()) {
      for (String table : TABLES) {
        String rows =
            table.equals("repository")
                ? "SELECT * FROM repository WHERE slug_key = ?"
                : "SELECT t.* FROM "
                    + table
                    + " t JOIN repository r ON r.id = t.repository_id"
                    + " WHERE r.slug_key = ?";
        try (PreparedStatement statement =
            connection.prepareStatement("CREATE TABLE " + prefix + "_" + table + " AS " + rows)) {
          statement.setString(1, repo.toLowerCase(Locale.ROOT));
          statement.execute();
        }
      }
    }
    return prefix;
  }

  /** Puts the repository back as the backup had it, in one transaction, as a restore would. */
  private void restore(String repo, String prefix) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (PreparedStatement delete =
          connection.prepareStatement("DELETE FROM repository WHERE slug_key = ?")) {
        delete.setString(1, repo.toLowerCase(Locale.ROOT));
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
