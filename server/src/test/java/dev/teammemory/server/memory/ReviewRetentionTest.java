package dev.teammemory.server.memory;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * History retention in a repository that requires review: the version teammates see (the key's
 * approved one) is never pruned, however many newer versions the key has, by the scheduled job or
 * by a write's own per-key bound; nor is a change that still waits.
 */
@QuarkusTest
class ReviewRetentionTest {

  /** rita: the review level on every repository (sees every kept version). */
  private static final String REVIEWER = "review-token";

  @Inject HistoryRetention retention;
  @Inject AgroalDataSource dataSource;

  @Test
  void neitherThePruneNorAWritesBoundDropsTheApprovedVersionOrAWaitingOne() throws SQLException {
    String repo = fresh("review-retention");
    put(repo, entries("busy.md", "approved")); // version 1
    as("owner-token")
        .queryParam("repo", repo)
        .body(Map.of("review", "required"))
        .put(PATH + "/settings")
        .then()
        .statusCode(200);
    for (int i = 2; i <= 56; i++) {
      put(repo, entries("busy.md", "waiting " + i)); // alice: each waits
      if (i % 10 == 0) {
        // Decided as they come: at most tmem.review.max-waiting-per-key (20) wait at once.
        update(
            "UPDATE review_change SET status = 'rejected' WHERE version < "
                + i
                + " AND repository_id = (SELECT id FROM repository WHERE slug_key = ?)",
            repo);
      }
    }
    // Every change but the newest decided against, without a restore: they may go, version 1 not.
    update(
        "UPDATE review_change SET status = 'rejected' WHERE version < 56 AND repository_id ="
            + " (SELECT id FROM repository WHERE slug_key = ?)",
        repo);

    retention.prune(Instant.now().plus(Duration.ofDays(91))); // all old: the newest 50 stay

    List<Long> kept = versions(repo, "busy.md");
    assertThat(kept).hasSize(51).startsWith(56L).endsWith(7L, 1L);
    assertThat(teammatesContent(repo)).isEqualTo("approved");

    // A write's own bound (60 versions a key in the tests) keeps them too.
    for (int i = 57; i <= 70; i++) {
      put(repo, entries("busy.md", "waiting " + i));
    }
    update(
        "UPDATE review_change SET status = 'rejected' WHERE version < 70 AND repository_id ="
            + " (SELECT id FROM repository WHERE slug_key = ?)",
        repo);
    put(repo, entries("busy.md", "waiting 71"));

    kept = versions(repo, "busy.md");
    assertThat(kept).hasSize(61).startsWith(71L).endsWith(1L);
    assertThat(kept).contains(70L);
    assertThat(teammatesContent(repo)).isEqualTo("approved");
  }

  private static String teammatesContent(String repo) {
    return as(READER)
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("content.entries.'busy.md'");
  }

  /** Every kept version of the key, newest first, as a reviewer sees them. */
  private static List<Long> versions(String repo, String key) {
    List<Long> versions = new ArrayList<>();
    String page = null;
    do {
      var request = as(REVIEWER).queryParam("repo", repo).queryParam("key", key);
      if (page != null) {
        request.queryParam("page", page);
      }
      JsonPath body = request.get(PATH + "/history").then().statusCode(200).extract().jsonPath();
      versions.addAll(body.getList("versions.version", Long.class));
      page = body.getString("next_page");
    } while (page != null);
    return versions;
  }

  private void update(String sql, String repo) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, repo.toLowerCase(Locale.ROOT));
      statement.executeUpdate();
    }
  }
}
