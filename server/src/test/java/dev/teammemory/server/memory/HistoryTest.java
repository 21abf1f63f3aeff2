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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class HistoryTest {

  private static JsonPath history(String repo, String key) {
    return as(READER)
        .queryParam("repo", repo)
        .queryParam("key", key)
        .get(PATH + "/history")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath();
  }

  private static JsonPath purge(String repo, String key, long version) {
    return as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", key)
        .queryParam("version", version)
        .delete(PATH + "/history")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath();
  }

  private static Map<String, Object> content(String repo) {
    return as(READER)
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .extract()
        .jsonPath()
        .getMap("content.entries");
  }

  @Test
  void historyListsEveryOverwrittenContentNewestFirstWithAuthorAndTime() {
    String repo = fresh("history");
    put(repo, entries("a.md", "one", "b.md", "other"));
    put(repo, entries("a.md", "two"));
    put(repo, entries("a.md", "three"));

    JsonPath history = history(repo, "a.md");

    assertThat(history.getString("repo")).isEqualTo(repo);
    assertThat(history.getString("key")).isEqualTo("a.md");
    assertThat(history.getList("versions.version", Long.class)).containsExactly(3L, 2L, 1L);
    assertThat(history.getList("versions.content")).containsExactly("three", "two", "one");
    assertThat(history.getList("versions.checksum"))
        .containsExactly(
            Checksums.ofContent("three"), Checksums.ofContent("two"), Checksums.ofContent("one"));
    assertThat(history.getList("versions.author")).containsOnly("alice");
    assertThat(history.getList("versions.deleted")).containsOnly(false);
    assertThat(history.getList("versions.at", String.class))
        .allSatisfy(at -> assertThat(at).matches("\\d{4}-.*\\.\\d{3}Z"));
  }

  @Test
  void historyIncludesTombstonesOfDeletesAndTheRevival() {
    String repo = fresh("tombstones");
    put(repo, entries("a.md", "one"));
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .delete(PATH)
        .then()
        .statusCode(200);
    put(repo, entries("a.md", "again"));

    JsonPath history = history(repo, "a.md");

    assertThat(history.getList("versions.version", Long.class)).containsExactly(3L, 2L, 1L);
    assertThat(history.getList("versions.deleted")).containsExactly(false, true, false);
    assertThat(history.getList("versions.content")).containsExactly("again", "", "one");
  }

  @Test
  void restoreIsAPutOfAnOldContent() {
    String repo = fresh("restore");
    put(repo, entries("a.md", "good"));
    put(repo, entries("a.md", "bad"));
    String old = history(repo, "a.md").getString("versions[1].content");

    put(repo, Map.of("entries", Map.of("a.md", old)));

    assertThat(content(repo)).isEqualTo(Map.of("a.md", "good"));
    assertThat(history(repo, "a.md").getList("versions.content"))
        .containsExactly("good", "bad", "good");
  }

  @Test
  void historyOfAKeyWithoutVersionsIsEmptyAndOfANeverWrittenRepository404() {
    String repo = fresh("empty-history");
    as(READER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .get(PATH + "/history")
        .then()
        .statusCode(404);
    put(repo, entries("a.md", "one"));
    assertThat(history(repo, "b.md").getList("versions")).isEmpty();
  }

  @Test
  void purgingAnOlderVersionRemovesItFromHistoryOnly() {
    String repo = fresh("purge-old");
    put(repo, entries("a.md", "secret-ish"));
    JsonPath current = put(repo, entries("a.md", "clean")).jsonPath();

    JsonPath purged = purge(repo, "a.md", 1);

    assertThat(purged.getLong("version")).isEqualTo(2);
    assertThat(purged.getString("checksum")).isEqualTo(current.getString("checksum"));
    assertThat(history(repo, "a.md").getList("versions.version", Long.class)).containsExactly(2L);
    assertThat(content(repo)).isEqualTo(Map.of("a.md", "clean"));
  }

  @Test
  void purgingTheCurrentContentFallsBackToThePreviousKeptVersion() {
    String repo = fresh("purge-current");
    put(repo, entries("a.md", "good", "b.md", "keep"));
    put(repo, entries("a.md", "leaked"));

    JsonPath purged = purge(repo, "a.md", 2);

    assertThat(purged.getLong("version")).isEqualTo(3);
    assertThat(purged.getString("checksum"))
        .isEqualTo(
            Checksums.ofRepository(
                Map.of("a.md", Checksums.ofContent("good"), "b.md", Checksums.ofContent("keep"))));
    assertThat(content(repo)).isEqualTo(Map.of("a.md", "good", "b.md", "keep"));
    JsonPath history = history(repo, "a.md");
    assertThat(history.getList("versions.content")).containsExactly("good");
    assertThat(history.getList("versions.content")).doesNotContain("leaked");
    assertThat(hashes(repo).jsonPath().getLong("version")).isEqualTo(3);
  }

  @Test
  void purgingTheOnlyVersionDeletesTheKeyWithATombstoneOfThePurgedChecksum() {
    String repo = fresh("purge-only");
    put(repo, entries("a.md", "leaked", "b.md", "keep"));

    JsonPath purged = purge(repo, "a.md", 1);

    assertThat(purged.getLong("version")).isEqualTo(2);
    JsonPath full = as(READER).queryParam("repo", repo).get(PATH).then().extract().jsonPath();
    assertThat(full.getMap("content.entries")).isEqualTo(Map.of("b.md", "keep"));
    assertThat(full.getMap("deletedKeys")).isEqualTo(Map.of("a.md", Checksums.ofContent("leaked")));
    JsonPath history = history(repo, "a.md");
    assertThat(history.getList("versions.deleted")).containsExactly(true);
    assertThat(history.getList("versions.content")).containsExactly("");
  }

  @Test
  void purgingATombstoneLeavesTheKeyDeleted() {
    String repo = fresh("purge-tombstone");
    put(repo, entries("a.md", "one"));
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .delete(PATH)
        .then()
        .statusCode(200);

    JsonPath purged = purge(repo, "a.md", 2);

    assertThat(purged.getLong("version")).isEqualTo(2);
    assertThat(history(repo, "a.md").getList("versions.version", Long.class)).containsExactly(1L);
    assertThat(hashes(repo).jsonPath().getMap("deletedKeys")).containsOnlyKeys("a.md");
  }

  @Test
  void purgingAnUnknownVersionReturns404AndBadVersionsReturn400() {
    String repo = fresh("purge-bad");
    put(repo, entries("a.md", "one"));
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .queryParam("version", 9)
        .delete(PATH + "/history")
        .then()
        .statusCode(404)
        .body("error.details.error_code", equalTo("not_found"));
    for (String version : List.of("0", "-1", "x", "1.5", "")) {
      as(WRITER)
          .queryParam("repo", repo)
          .queryParam("key", "a.md")
          .queryParam("version", version)
          .delete(PATH + "/history")
          .then()
          .statusCode(400)
          .body("error.details.error_code", equalTo("invalid_parameter"));
    }
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .delete(PATH + "/history")
        .then()
        .statusCode(400);
    assertThat(history(repo, "a.md").getList("versions")).hasSize(1);
  }

  @Test
  void historyWithoutAKeyIs400InvalidParameterAndWithABadKey400InvalidKey() {
    String repo = fresh("history-bad");
    put(repo, entries("a.md", "one"));
    as(READER)
        .queryParam("repo", repo)
        .get(PATH + "/history")
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_parameter"));
    as(READER)
        .queryParam("repo", repo)
        .queryParam("key", "/etc/passwd")
        .get(PATH + "/history")
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_key"));
  }
}
