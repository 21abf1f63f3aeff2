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
import java.util.ArrayList;
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

  /** The pages of the key's history, following next_page until the last. */
  static List<JsonPath> allPages(String repo, String key) {
    List<JsonPath> pages = new ArrayList<>();
    String page = null;
    do {
      var request = as(READER).queryParam("repo", repo).queryParam("key", key);
      if (page != null) {
        request.queryParam("page", page);
      }
      JsonPath body = request.get(PATH + "/history").then().statusCode(200).extract().jsonPath();
      pages.add(body);
      page = body.getString("next_page");
    } while (page != null && pages.size() < 100);
    return pages;
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

  @Test
  void historyComesInPagesOfAtMostTwentyVersionsAndTheCursorsReachEveryVersion() {
    String repo = fresh("history-pages");
    for (int i = 1; i <= 45; i++) {
      put(repo, entries("a.md", "version " + i));
    }

    List<JsonPath> pages = allPages(repo, "a.md");

    assertThat(pages)
        .extracting(page -> page.getList("versions").size())
        .containsExactly(20, 20, 5);
    assertThat(pages.get(2).getString("next_page")).isNull();
    assertThat(
            pages.stream().flatMap(page -> page.getList("versions.version", Long.class).stream()))
        .containsExactlyElementsOf(
            java.util.stream.LongStream.rangeClosed(1, 45).map(v -> 46 - v).boxed().toList());
    // A client that ignores next_page gets the newest versions, as before.
    assertThat(history(repo, "a.md").getList("versions.content").get(0)).isEqualTo("version 45");
  }

  @Test
  void aPageEndsOnceItsContentReachesThePageBytesButAlwaysCarriesOneVersion() {
    String repo = fresh("history-bytes");
    for (int i = 1; i <= 3; i++) {
      put(repo, entries("big.md", String.valueOf(i).repeat(200_000)));
    }

    List<JsonPath> pages = allPages(repo, "big.md");

    // 300,000 bytes a page: two versions of 200,000 would be over it.
    assertThat(pages)
        .extracting(page -> page.getList("versions.version", Long.class))
        .containsExactly(List.of(3L), List.of(2L), List.of(1L));
  }

  @Test
  void aForgedOrGarbledPageCursorIs400InvalidParameterInTheEnvelope() {
    String repo = fresh("history-cursor");
    put(repo, entries("a.md", "one"));
    for (String forged : List.of("x", "v0", "v-1", "v1\u0000", "v1\0", "v" + "9".repeat(40))) {
      as(READER)
          .queryParam("repo", repo)
          .queryParam("key", "a.md")
          .queryParam("page", forged.replace("\\u0000", "\u0000"))
          .get(PATH + "/history")
          .then()
          .statusCode(400)
          .body("error.details.error_code", equalTo("invalid_parameter"))
          .body(
              "error.message",
              equalTo(
                  "the page parameter is not a cursor this server gave; send back the next_page"
                      + " of the previous page as it was"));
    }
  }

  @Test
  void eachKeyKeepsAtMostItsBoundOfVersionsOldestDroppedFirstAndNeverAnotherKeys() {
    String repo = fresh("history-bound");
    put(repo, entries("quiet.md", "only"));
    for (int i = 1; i <= 65; i++) {
      put(repo, entries("busy.md", "version " + i));
    }

    List<Long> busy =
        allPages(repo, "busy.md").stream()
            .flatMap(page -> page.getList("versions.version", Long.class).stream())
            .toList();
    assertThat(busy).hasSize(60);
    assertThat(busy.get(0)).isEqualTo(66L);
    assertThat(busy.get(59)).isEqualTo(7L);
    assertThat(history(repo, "quiet.md").getList("versions.version", Long.class))
        .containsExactly(1L);
  }

  @Test
  void eachKeyKeepsAtMostItsBoundOfBytesButAlwaysItsCurrentVersion() {
    String repo = fresh("history-bound-bytes");
    for (int i = 1; i <= 6; i++) {
      put(repo, entries("big.md", String.valueOf(i).repeat(240_000)));
    }

    List<Long> kept =
        allPages(repo, "big.md").stream()
            .flatMap(page -> page.getList("versions.version", Long.class).stream())
            .toList();
    // 1,000,000 bytes a key: the newest four versions of 240,000 fit, a fifth would not.
    assertThat(kept).containsExactly(6L, 5L, 4L, 3L);
    assertThat(content(repo).get("big.md")).isEqualTo("6".repeat(240_000));
  }
}
