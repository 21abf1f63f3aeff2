package dev.teammemory.server.changes;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.server.Await;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ChangeFeedTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @Inject ChangeNotifications notifications;
  @Inject PostgresChangeListener listener;
  @Inject AgroalDataSource dataSource;

  @BeforeEach
  void listenerIsListening() {
    Await.until("the change listener to connect", listener::listening);
  }

  private static CompletableFuture<ExtractableResponse<Response>> poll(
      String repo, String since, int wait) {
    return CompletableFuture.supplyAsync(
        () ->
            as(READER)
                .queryParam("repo", repo)
                .queryParam("since", '"' + since + '"')
                .queryParam("wait", wait)
                .get(PATH + "/changes")
                .then()
                .extract());
  }

  @Test
  void changeFeedAnswersAtOnceWhenTheChecksumAlreadyDiffers() {
    String repo = fresh("feed-differs");
    String checksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");

    ExtractableResponse<Response> response = poll(repo, Checksums.EMPTY, 60).join();

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.jsonPath().getString("checksum")).isEqualTo(checksum);
    assertThat(response.jsonPath().getMap("entryChecksums")).containsOnlyKeys("a.md");
    assertThat(response.header("ETag")).isEqualTo('"' + checksum + '"');
  }

  @Test
  void waitingRequestCompletesWhenAnotherRequestWrites() throws Exception {
    String repo = fresh("feed-wakes");
    String checksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");
    int waitingBefore = notifications.waiting();

    CompletableFuture<ExtractableResponse<Response>> waiting = poll(repo, checksum, 60);
    Await.until("the poll to wait", () -> notifications.waiting() > waitingBefore);
    assertThat(waiting).isNotDone();
    String next = put(repo, entries("b.md", "two")).jsonPath().getString("checksum");

    ExtractableResponse<Response> response = waiting.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.jsonPath().getString("checksum")).isEqualTo(next);
    assertThat(response.jsonPath().getLong("version")).isEqualTo(2);
  }

  @Test
  void waitingOnANeverWrittenRepositoryCompletesWithItsFirstWrite() throws Exception {
    String repo = fresh("feed-first");
    int waitingBefore = notifications.waiting();
    CompletableFuture<ExtractableResponse<Response>> waiting = poll(repo, Checksums.EMPTY, 60);
    Await.until("the poll to wait", () -> notifications.waiting() > waitingBefore);

    put(repo, entries("a.md", "one"));

    ExtractableResponse<Response> response = waiting.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.jsonPath().getLong("version")).isEqualTo(1);
  }

  @Test
  void unchangedRepositoryReturns304AfterTheWait() {
    String repo = fresh("feed-304");
    String checksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");

    ExtractableResponse<Response> response = poll(repo, checksum, 1).join();

    assertThat(response.statusCode()).isEqualTo(304);
    assertThat(response.body().asString()).isEmpty();
    ExtractableResponse<Response> immediate = poll(repo, checksum, 0).join();
    assertThat(immediate.statusCode()).isEqualTo(304);
  }

  @Test
  void badWaitOrSinceReturns400InvalidParameter() {
    String repo = fresh("feed-bad");
    for (String wait : List.of("61", "-1", "x", "1.5", "9999999999")) {
      as(READER)
          .queryParam("repo", repo)
          .queryParam("since", Checksums.EMPTY)
          .queryParam("wait", wait)
          .get(PATH + "/changes")
          .then()
          .statusCode(400)
          .body("error.details.error_code", equalTo("invalid_parameter"));
    }
    for (String since : List.of("", "sha256:abc", "md5:" + "0".repeat(64))) {
      as(READER)
          .queryParam("repo", repo)
          .queryParam("since", since)
          .get(PATH + "/changes")
          .then()
          .statusCode(400)
          .body("error.details.error_code", equalTo("invalid_parameter"));
    }
    as(READER).queryParam("repo", repo).get(PATH + "/changes").then().statusCode(400);
  }

  @Test
  void listenerReconnectsAfterItsConnectionIsKilledAndWaitersStillWake() throws Exception {
    String repo = fresh("feed-reconnect");
    String checksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");
    int killed = terminateListenerConnections();
    assertThat(killed).isEqualTo(1);
    Await.until(
        "a new listener connection", () -> listenerConnections() == 1 && listener.listening());

    int waitingBefore = notifications.waiting();
    CompletableFuture<ExtractableResponse<Response>> waiting = poll(repo, checksum, 60);
    Await.until("the poll to wait", () -> notifications.waiting() > waitingBefore);
    put(repo, entries("a.md", "two"));

    assertThat(waiting.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }

  private int terminateListenerConnections() throws SQLException {
    return count(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '"
            + PostgresChangeListener.APPLICATION_NAME
            + "'");
  }

  private int listenerConnections() {
    try {
      return count(
          "SELECT count(*) FROM pg_stat_activity WHERE application_name = '"
              + PostgresChangeListener.APPLICATION_NAME
              + "' AND query LIKE 'LISTEN%'");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private int count(String sql) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getInt(1);
    }
  }
}
