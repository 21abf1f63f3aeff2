package dev.teammemory.server.limits;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ProtocolJson;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The protocol's limits, with small values so that they are reached quickly. The same deployment
 * names an organisation, so that one restart covers both per-deployment settings.
 */
@QuarkusTest
@TestProfile(LimitsTest.SmallLimitsAndAnOrganisation.class)
class LimitsTest {

  public static final class SmallLimitsAndAnOrganisation implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "tmem.limits.max-entries", "5",
          "tmem.limits.max-entry-bytes", "100",
          "tmem.limits.max-body-bytes", "2048",
          "tmem.limits.max-repository-bytes", "300",
          "tmem.organization", "Acme Corporation");
    }
  }

  @Test
  void organizationIdIsTheDeploymentsOrganisationWhenOneIsConfigured() {
    String repo = fresh("organisation");
    put(repo, entries("a.md", "one"));

    as(WRITER)
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(200)
        .body("organizationId", equalTo("Acme Corporation"));
  }

  @ConfigProperty(name = "quarkus.http.test-port")
  int port;

  @Test
  void bodyOverTheLimitReturns413RequestTooLargeAndWritesNothing() {
    String repo = fresh("body");
    String body = "{\"entries\": {\"a.md\": \"" + "x".repeat(3000) + "\"}}";

    as(WRITER)
        .queryParam("repo", repo)
        .body(body)
        .put(PATH)
        .then()
        .statusCode(413)
        .contentType("application/json")
        .body("error.details.error_code", equalTo("request_too_large"))
        .body("error.details.max_bytes", equalTo(2048));
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
  }

  @Test
  void chunkedBodyOverTheLimitIsCountedAndReturns413() throws IOException, InterruptedException {
    String repo = fresh("chunked");
    byte[] body =
        ("{\"entries\": {\"a.md\": \"" + "x".repeat(5000) + "\"}}")
            .getBytes(StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://localhost:"
                        + port
                        + PATH
                        + "?repo="
                        + URLEncoder.encode(repo, StandardCharsets.UTF_8)))
            .header("Authorization", "Bearer " + WRITER)
            .header("Content-Type", "application/json")
            // No length: the client must stream it chunked, so only counting can catch it.
            .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
            .build();

    HttpResponse<String> response;
    try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      response = client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(
            ProtocolJson.mapper()
                .readTree(response.body())
                .at("/error/details/error_code")
                .asText())
        .isEqualTo("request_too_large");
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
  }

  @Test
  void entryOverTheLimitReturns413EntryTooLargeNamingTheKeyAndTheLimit() {
    String repo = fresh("entry");
    put(repo, entries("a.md", "one"));

    as(WRITER)
        .queryParam("repo", repo)
        .body(entries("b.md", "fine", "big.md", "é".repeat(51)))
        .put(PATH)
        .then()
        .statusCode(413)
        .body("error.details.error_code", equalTo("entry_too_large"))
        .body("error.details.key", equalTo("big.md"))
        .body("error.details.max_bytes", equalTo(100));
    assertThat(hashes(repo).jsonPath().getMap("entryChecksums")).containsOnlyKeys("a.md");
  }

  @Test
  void entryAtTheLimitIsAccepted() {
    put(fresh("entry-limit"), entries("a.md", "x".repeat(100)));
  }

  @Test
  void tooManyEntriesAfterTheMergeReturnsExactlyTheProtocolsBodyAndWritesNothing()
      throws IOException {
    String repo = fresh("cap");
    put(repo, entries("1.md", "1", "2.md", "2", "3.md", "3", "4.md", "4"));
    JsonPath before = hashes(repo).jsonPath();

    String body =
        as(WRITER)
            .queryParam("repo", repo)
            .body(entries("4.md", "four", "5.md", "5", "6.md", "6", "7.md", "7"))
            .put(PATH)
            .then()
            .statusCode(413)
            .contentType("application/json")
            .extract()
            .asString();

    JsonNode expected =
        ProtocolJson.mapper()
            .readTree(
                "{\"error\": {\"details\": {\"error_code\": \"team_memory_too_many_entries\","
                    + " \"max_entries\": 5, \"received_entries\": 7}}}");
    assertThat(ProtocolJson.mapper().readTree(body)).isEqualTo(expected);
    JsonPath after = hashes(repo).jsonPath();
    assertThat(after.getString("checksum")).isEqualTo(before.getString("checksum"));
    assertThat(after.getLong("version")).isEqualTo(before.getLong("version"));
  }

  @Test
  void entriesUpToTheCapAreAcceptedAndReplacingKeysDoesNotCount() {
    String repo = fresh("at-cap");
    put(repo, entries("1.md", "1", "2.md", "2", "3.md", "3", "4.md", "4", "5.md", "5"));
    put(repo, entries("1.md", "one", "5.md", "five"));
  }

  @Test
  void tooManyEntriesInANeverWrittenRepositoryCreatesNothing() {
    String repo = fresh("cap-new");
    Map<String, String> six = new LinkedHashMap<>();
    for (int i = 0; i < 6; i++) {
      six.put(i + ".md", "x");
    }
    as(WRITER)
        .queryParam("repo", repo)
        .body(Map.of("entries", six))
        .put(PATH)
        .then()
        .statusCode(413)
        .body("error.details.received_entries", equalTo(6))
        .body("error.message", org.hamcrest.Matchers.nullValue());
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
  }

  @Test
  void repositoryOverItsByteLimitAfterTheMergeReturns413RepositoryTooLarge() {
    String repo = fresh("bytes");
    put(repo, entries("a.md", "a".repeat(100), "b.md", "b".repeat(100)));
    JsonPath before = hashes(repo).jsonPath();

    as(WRITER)
        .queryParam("repo", repo)
        .body(entries("c.md", "c".repeat(100), "d.md", "d"))
        .put(PATH)
        .then()
        .statusCode(413)
        .body("error.details.error_code", equalTo("repository_too_large"))
        .body("error.details.max_bytes", equalTo(300))
        .body("error.details.bytes", equalTo(301));
    assertThat(hashes(repo).jsonPath().getString("checksum"))
        .isEqualTo(before.getString("checksum"));

    // Replacing content with smaller content is counted as the difference.
    put(repo, entries("a.md", "a", "c.md", "c".repeat(100)));
  }

  private static String storeOf(String repo) {
    return as(WRITER)
        .body(Map.of("name", repo))
        .post("/v1/memory_stores")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("id");
  }

  private static JsonPath refusedStoreWrite(
      String storeId, String path, String content, int status) {
    JsonPath error =
        as(WRITER)
            .body(Map.of("path", path, "content", content))
            .post("/v1/memory_stores/" + storeId + "/memories")
            .then()
            .statusCode(status)
            .extract()
            .jsonPath();
    assertThat(error.getString("type")).isEqualTo("error");
    return error;
  }

  @Test
  void storeApiWritesOverTheLimitsAreRefusedWithTheMessagesClaudeCodeMatches() {
    String full = fresh("store-entries");
    put(full, entries("a.md", "1", "b.md", "2", "c.md", "3", "d.md", "4", "e.md", "5"));
    JsonPath entries = refusedStoreWrite(storeOf(full), "/f.md", "6", 400);
    assertThat(entries.getString("error.type")).isEqualTo("invalid_request_error");
    assertThat(entries.getString("error.message"))
        .isEqualTo("memory store has reached its memory limit");

    String large = fresh("store-bytes");
    put(large, entries("a.md", "x".repeat(100), "b.md", "y".repeat(100), "c.md", "z".repeat(100)));
    JsonPath bytes = refusedStoreWrite(storeOf(large), "/d.md", "1", 400);
    assertThat(bytes.getString("error.type")).isEqualTo("invalid_request_error");
    assertThat(bytes.getString("error.message"))
        .isEqualTo("memory store has reached its size limit");
    assertThat(hashes(large).jsonPath().getMap("entryChecksums")).hasSize(3);

    JsonPath body = refusedStoreWrite(storeOf(fresh("store-body")), "/a.md", "x".repeat(3000), 413);
    assertThat(body.getString("error.type")).isEqualTo("request_too_large");
  }
}
