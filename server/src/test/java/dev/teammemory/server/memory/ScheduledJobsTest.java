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
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ScheduledJobsTest {

  @Inject MemoryJobs jobs;
  @Inject HistoryRetention retention;
  @Inject AgroalDataSource dataSource;

  /** Every kept version of the key, page after page. */
  private static List<Long> versions(String repo, String key) {
    return HistoryTest.allPages(repo, key).stream()
        .flatMap(page -> page.getList("versions.version", Long.class).stream())
        .toList();
  }

  @Test
  void pruneKeepsTheNewestFiftyVersionsOfEachKeyAndEverythingYoungerThanNinetyDays() {
    String repo = fresh("retention");
    for (int i = 1; i <= 55; i++) {
      put(repo, entries("busy.md", "version " + i));
    }
    put(repo, entries("quiet.md", "only version"));

    jobs.pruneHistory(); // now: every version is younger than 90 days, so all are kept
    assertThat(versions(repo, "busy.md")).hasSize(55);

    retention.prune(Instant.now().plus(Duration.ofDays(91))); // all are old: keep the newest 50
    List<Long> kept = versions(repo, "busy.md");
    assertThat(kept).hasSize(50);
    assertThat(kept.get(0)).isEqualTo(55L);
    assertThat(kept.get(49)).isEqualTo(6L);
    assertThat(versions(repo, "quiet.md")).containsExactly(56L);
    assertThat(
            as(READER)
                .queryParam("repo", repo)
                .get(PATH)
                .then()
                .extract()
                .jsonPath()
                .getString("content.entries.'busy.md'"))
        .isEqualTo("version 55");
  }

  @Test
  void refreshRepairsRepositoryStatisticsFromTheEntries() throws SQLException {
    String repo = fresh("statistics");
    put(repo, entries("a.md", "12345", "b.md", "é"));
    update("UPDATE repository SET entry_count = 99, total_bytes = 99 WHERE slug_key = ?", repo);

    jobs.refreshStatistics();

    assertThat(statistics(repo)).containsExactly(2L, 7L);
  }

  @Test
  void writesKeepRepositoryStatisticsCurrent() throws SQLException {
    String repo = fresh("statistics-kept");
    put(repo, entries("a.md", "12345", "b.md", "é"));
    put(repo, entries("a.md", "1"));
    as(dev.teammemory.server.TestRepositories.WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "b.md")
        .delete(PATH)
        .then()
        .statusCode(200);

    assertThat(statistics(repo)).containsExactly(1L, 1L);
  }

  private void update(String sql, String repo) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, repo.toLowerCase(Locale.ROOT));
      statement.executeUpdate();
    }
  }

  private List<Long> statistics(String repo) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT entry_count, total_bytes FROM repository WHERE slug_key = ?")) {
      statement.setString(1, repo.toLowerCase(Locale.ROOT));
      try (ResultSet result = statement.executeQuery()) {
        assertThat(result.next()).isTrue();
        return List.of(result.getLong(1), result.getLong(2));
      }
    }
  }
}
