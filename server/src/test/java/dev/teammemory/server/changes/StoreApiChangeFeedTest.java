package dev.teammemory.server.changes;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.server.Await;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The change feed wakes for Memory Stores API writes, in both of its forms. */
@QuarkusTest
class StoreApiChangeFeedTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @Inject ChangeNotifications notifications;
  @Inject PostgresChangeListener listener;

  @BeforeEach
  void listenerIsListening() {
    Await.until("the change listener to connect", listener::listening);
  }

  private static String storeOf(String repo) {
    return given()
        .auth()
        .oauth2(WRITER)
        .contentType(ContentType.JSON)
        .body(Map.of("name", repo))
        .post("/v1/memory_stores")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("id");
  }

  private static void createMemory(String storeId, String path) {
    given()
        .auth()
        .oauth2(WRITER)
        .contentType(ContentType.JSON)
        .body(Map.of("path", path, "content", "from the store API"))
        .post("/v1/memory_stores/" + storeId + "/memories")
        .then()
        .statusCode(200);
  }

  private CompletableFuture<ExtractableResponse<Response>> waitingPoll(
      String repo, String parameter, String value) {
    int waitingBefore = notifications.waiting();
    CompletableFuture<ExtractableResponse<Response>> poll =
        CompletableFuture.supplyAsync(
            () ->
                as(READER)
                    .queryParam("repo", repo)
                    .queryParam(parameter, value)
                    .queryParam("wait", 60)
                    .get(PATH + "/changes")
                    .then()
                    .extract());
    Await.until("the poll to wait", () -> notifications.waiting() > waitingBefore);
    assertThat(poll).isNotDone();
    return poll;
  }

  @Test
  void aSincePollWakesForAStoreApiWrite() throws Exception {
    String repo = fresh("feed-v1-since");
    String checksum = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");
    String id = storeOf(repo);
    CompletableFuture<ExtractableResponse<Response>> poll =
        waitingPoll(repo, "since", '"' + checksum + '"');

    createMemory(id, "/b.md");

    ExtractableResponse<Response> woken = poll.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    assertThat(woken.statusCode()).isEqualTo(200);
    assertThat(woken.jsonPath().getMap("entryChecksums")).containsOnlyKeys("a.md", "b.md");
  }

  @Test
  void anAfterVersionPollWakesForAStoreApiWrite() throws Exception {
    String repo = fresh("feed-v1-after");
    long version = put(repo, entries("a.md", "one")).jsonPath().getLong("version");
    String id = storeOf(repo);
    CompletableFuture<ExtractableResponse<Response>> poll =
        waitingPoll(repo, "after_version", Long.toString(version));

    createMemory(id, "/b.md");

    ExtractableResponse<Response> woken = poll.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    assertThat(woken.statusCode()).isEqualTo(200);
    assertThat(woken.jsonPath().getLong("version")).isEqualTo(version + 1);
    assertThat(woken.jsonPath().getMap("changed")).containsOnlyKeys("b.md");
    assertThat(woken.jsonPath().getMap("authors")).isEqualTo(Map.of("b.md", "alice"));
  }
}
