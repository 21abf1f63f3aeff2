package dev.teammemory.server.memory;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.teammemory.protocol.Checksums;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class DeleteTest {

  private static ExtractableResponse<Response> delete(String repo, String key) {
    return as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", key)
        .delete(PATH)
        .then()
        .statusCode(200)
        .extract();
  }

  @Test
  void deleteMovesTheKeyToDeletedKeysInBothViewsInANewVersion() {
    String repo = fresh("delete");
    put(repo, entries("a.md", "one", "b.md", "two"));

    ExtractableResponse<Response> deleted = delete(repo, "a.md");

    String expected = Checksums.ofRepository(Map.of("b.md", Checksums.ofContent("two")));
    assertThat(deleted.jsonPath().getLong("version")).isEqualTo(2);
    assertThat(deleted.jsonPath().getString("checksum")).isEqualTo(expected);
    assertThat(deleted.jsonPath().getString("lastModified")).isNotBlank();
    assertThat(deleted.header("ETag")).isEqualTo('"' + expected + '"');

    JsonPath full = as(READER).queryParam("repo", repo).get(PATH).then().extract().jsonPath();
    assertThat(full.getMap("content.entries")).isEqualTo(Map.of("b.md", "two"));
    assertThat(full.getMap("content.entryChecksums")).containsOnlyKeys("b.md");
    assertThat(full.getMap("deletedKeys")).isEqualTo(Map.of("a.md", Checksums.ofContent("one")));
    assertThat(full.getString("checksum")).isEqualTo(expected);

    JsonPath view = hashes(repo).jsonPath();
    assertThat(view.getMap("entryChecksums")).containsOnlyKeys("b.md");
    assertThat(view.getMap("deletedKeys")).isEqualTo(Map.of("a.md", Checksums.ofContent("one")));
  }

  @Test
  void laterPutRevivesADeletedKey() {
    String repo = fresh("revive");
    put(repo, entries("a.md", "one"));
    delete(repo, "a.md");

    JsonPath revived = put(repo, entries("a.md", "one")).jsonPath();

    assertThat(revived.getLong("version")).isEqualTo(3);
    JsonPath full = as(READER).queryParam("repo", repo).get(PATH).then().extract().jsonPath();
    assertThat(full.getMap("content.entries")).isEqualTo(Map.of("a.md", "one"));
    assertThat(full.getMap("$")).doesNotContainKey("deletedKeys");
    assertThat(full.getString("checksum"))
        .isEqualTo(Checksums.ofRepository(Map.of("a.md", Checksums.ofContent("one"))));
  }

  @Test
  void deletingTheLastKeyLeavesAnEmptyRepositoryThatStillAnswers200() {
    String repo = fresh("last");
    put(repo, entries("a.md", "one"));

    assertThat(delete(repo, "a.md").jsonPath().getString("checksum")).isEqualTo(Checksums.EMPTY);

    JsonPath full =
        as(READER).queryParam("repo", repo).get(PATH).then().statusCode(200).extract().jsonPath();
    assertThat(full.getMap("content.entries")).isEmpty();
    assertThat(full.getMap("deletedKeys")).containsOnlyKeys("a.md");
  }

  @Test
  void deleteWithStaleIfMatchReturns412AndDeletesNothing() {
    String repo = fresh("delete-stale");
    String old = put(repo, entries("a.md", "one")).jsonPath().getString("checksum");
    String current = put(repo, entries("b.md", "two")).jsonPath().getString("checksum");

    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .header("If-Match", '"' + old + '"')
        .delete(PATH)
        .then()
        .statusCode(412)
        .body("error.details.error_code", equalTo("precondition_failed"));
    assertThat(hashes(repo).jsonPath().getString("checksum")).isEqualTo(current);

    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .header("If-Match", '"' + current + '"')
        .delete(PATH)
        .then()
        .statusCode(200);
  }

  @Test
  void deletingAnAlreadyDeletedKeyChangesNothing() {
    String repo = fresh("twice");
    put(repo, entries("a.md", "one", "b.md", "two"));
    JsonPath first = delete(repo, "a.md").jsonPath();

    JsonPath second = delete(repo, "a.md").jsonPath();

    assertThat(second.getLong("version")).isEqualTo(first.getLong("version"));
    assertThat(second.getString("checksum")).isEqualTo(first.getString("checksum"));
  }

  @Test
  void deletingAnUnknownKeyOrInANeverWrittenRepositoryReturns404() {
    String repo = fresh("unknown-key");
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .delete(PATH)
        .then()
        .statusCode(404);
    put(repo, entries("a.md", "one"));
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "nope.md")
        .delete(PATH)
        .then()
        .statusCode(404)
        .body("error.details.key", equalTo("nope.md"));
    assertThat(hashes(repo).jsonPath().getLong("version")).isEqualTo(1);
  }

  @Test
  void deleteWithoutAKeyIs400InvalidParameterAndWithABadKey400InvalidKey() {
    String repo = fresh("delete-bad");
    put(repo, entries("a.md", "one"));
    as(WRITER)
        .queryParam("repo", repo)
        .delete(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_parameter"));
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "../a.md")
        .delete(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_key"))
        .body("error.details.key", equalTo("../a.md"));
    assertThat(hashes(repo).jsonPath().getLong("version")).isEqualTo(1);
  }
}
