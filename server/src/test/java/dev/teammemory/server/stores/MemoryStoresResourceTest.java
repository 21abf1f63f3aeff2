package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WIDGETS_READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.TestRepositories.storeIdOf;
import static dev.teammemory.server.stores.StoreApi.STORES;
import static dev.teammemory.server.stores.StoreApi.assertError;
import static dev.teammemory.server.stores.StoreApi.createMemory;
import static dev.teammemory.server.stores.StoreApi.memories;
import static dev.teammemory.server.stores.StoreApi.storeOf;
import static dev.teammemory.server.stores.StoreApi.v1;
import static dev.teammemory.server.stores.StoreApi.versions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MemoryStoresResourceTest {

  @Test
  void createBindsTheStoreToMetadataRepoAndAnswersTheStoreShape() {
    String repo = fresh("store-create");

    JsonPath created =
        v1(WRITER)
            .body(
                Map.of(
                    "name",
                    "Team notes",
                    "description",
                    "what we learned",
                    "metadata",
                    Map.of("repo", repo, "team", "core")))
            .post(STORES)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();

    assertThat(created.getString("type")).isEqualTo("memory_store");
    assertThat(created.getString("id")).matches("memstore_[0-9a-f]{32}");
    assertThat(created.getString("name")).isEqualTo("Team notes");
    assertThat(created.getString("description")).isEqualTo("what we learned");
    assertThat(created.getMap("metadata")).isEqualTo(Map.of("repo", repo, "team", "core"));
    assertThat(created.getString("created_at")).endsWith("Z");
    assertThat(created.getString("updated_at")).isEqualTo(created.getString("created_at"));
    assertThat(created.getMap("$")).containsEntry("archived_at", null);
    // For team_memory, a created but empty store is a never-written repository.
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
    assertThat(storeIdOf(repo)).isEqualTo(created.getString("id"));
  }

  @Test
  void createWithTheSlugAsNameNeedsNoMetadataAndIsIdempotentWhateverTheCase() {
    String repo = fresh("store-slug");
    JsonPath first =
        v1(WRITER)
            .body(Map.of("name", repo))
            .post(STORES)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(first.getString("name")).isEqualTo(repo);
    assertThat(first.getMap("metadata")).isEqualTo(Map.of("repo", repo));

    JsonPath again =
        v1(WRITER)
            .body(Map.of("name", "other", "metadata", Map.of("repo", repo.toUpperCase())))
            .post(STORES)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();

    assertThat(again.getString("id")).isEqualTo(first.getString("id"));
    assertThat(again.getString("name")).isEqualTo(repo);
  }

  @Test
  void aRepositoryWrittenThroughTeamMemoryAlreadyHasItsStore() {
    String repo = fresh("store-existing");
    put(repo, entries("a.md", "one"));
    String id = storeIdOf(repo);

    assertThat(storeIdOf(repo)).isEqualTo(id);
  }

  @Test
  void createRefusesNamesThatBindNoRepositoryAndBadMembers() {
    assertError(
        v1(WRITER).body(Map.of("name", "notes")).post(STORES).then().extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(WRITER)
            .body(Map.of("name", "notes", "metadata", Map.of("repo", "no slug")))
            .post(STORES)
            .then()
            .extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(WRITER).body(Map.of("description", "x")).post(STORES).then().extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(WRITER).body(Map.of("name", "")).post(STORES).then().extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(WRITER).body(Map.of("name", "a/" + "b".repeat(300))).post(STORES).then().extract(),
        400,
        "invalid_request_error");
    Map<String, String> tooMany = new HashMap<>();
    for (int i = 0; i < 17; i++) {
      tooMany.put("k" + i, "v");
    }
    assertError(
        v1(WRITER)
            .body(Map.of("name", fresh("meta"), "metadata", tooMany))
            .post(STORES)
            .then()
            .extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(WRITER).body("{\"name\":").post(STORES).then().extract(), 400, "invalid_request_error");
    assertError(
        v1(WRITER).body("[1,2]").post(STORES).then().extract(), 400, "invalid_request_error");
  }

  @Test
  void creatingNeedsPushAndAnInvisibleRepositoryIsNotFound() {
    assertError(
        v1(READER).body(Map.of("name", fresh("read-only"))).post(STORES).then().extract(),
        403,
        "permission_error");
    assertError(
        v1(WIDGETS_READER).body(Map.of("name", fresh("hidden"))).post(STORES).then().extract(),
        404,
        "not_found_error");
  }

  @Test
  void listShowsOnlyStoresTheCallerMayReadAndPagesThroughThem() {
    String widgets = storeOf("acme/widgets");
    String gadgets = storeOf("acme/gadgets");
    // More newer stores dave cannot see than a listing reads at a time: his pages still find his.
    for (int i = 0; i < 150; i++) {
      storeOf(fresh("not-dave"));
    }

    List<String> ids = new ArrayList<>();
    String page = null;
    do {
      var request = v1(WIDGETS_READER).queryParam("limit", 1);
      if (page != null) {
        request.queryParam("page", page);
      }
      JsonPath listed = request.get(STORES).then().statusCode(200).extract().jsonPath();
      assertThat(listed.getList("data")).hasSizeLessThanOrEqualTo(1);
      ids.addAll(listed.getList("data.id", String.class));
      page = listed.getString("next_page");
    } while (page != null);

    assertThat(ids).containsExactlyInAnyOrder(widgets, gadgets);
  }

  @Test
  void theRepoPairCountsTowardsSixteenWhicheverWayTheStoreIsBound() {
    Map<String, String> fifteen = new HashMap<>();
    for (int i = 0; i < 15; i++) {
      fifteen.put("k" + i, "v");
    }
    Map<String, String> sixteen = new HashMap<>(fifteen);
    sixteen.put("k15", "v");

    // Bound by its name: the repo pair is added when served, so 16 more would be 17.
    assertError(
        v1(WRITER)
            .body(Map.of("name", fresh("meta-by-name"), "metadata", sixteen))
            .post(STORES)
            .then()
            .extract(),
        400,
        "invalid_request_error");
    JsonPath created =
        v1(WRITER)
            .body(Map.of("name", fresh("meta-by-name"), "metadata", fifteen))
            .post(STORES)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(created.getMap("metadata")).hasSize(16);

    // A store served with 16 pairs can still change one of them.
    v1(WRITER)
        .body(Map.of("metadata", Map.of("k0", "changed")))
        .post(STORES + "/" + created.getString("id"))
        .then()
        .statusCode(200);
  }

  @Test
  void concurrentUpdatesOfDifferentMetadataKeysKeepEveryKey() throws Exception {
    String store = STORES + "/" + storeOf(fresh("store-concurrent"));
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Integer>> statuses = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String key = "writer" + i;
        statuses.add(
            pool.submit(
                () ->
                    v1(WRITER)
                        .body(Map.of("metadata", Map.of(key, "yes")))
                        .post(store)
                        .statusCode()));
      }
      for (Future<Integer> status : statuses) {
        assertThat(status.get()).isEqualTo(200);
      }
    } finally {
      pool.shutdown();
    }

    Map<String, Object> metadata =
        v1(READER).get(store).then().statusCode(200).extract().jsonPath().getMap("metadata");
    for (int i = 0; i < writers; i++) {
      assertThat(metadata).containsEntry("writer" + i, "yes");
    }
  }

  @Test
  void retrieveUpdateAndTheImmutableBinding() {
    String repo = fresh("store-update");
    String id = storeOf(repo);
    String store = STORES + "/" + id;

    JsonPath updated =
        v1(WRITER)
            .body(
                "{\"description\":\"now described\",\"metadata\":{\"team\":\"core\",\"x\":\"1\"}}")
            .post(store)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(updated.getString("description")).isEqualTo("now described");
    assertThat(updated.getMap("metadata"))
        .isEqualTo(Map.of("repo", repo, "team", "core", "x", "1"));

    JsonPath removed =
        v1(WRITER)
            .body("{\"metadata\":{\"x\":null}}")
            .post(store)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(removed.getMap("metadata")).isEqualTo(Map.of("repo", repo, "team", "core"));
    assertThat(v1(READER).get(store).then().statusCode(200).extract().jsonPath().getMap("metadata"))
        .isEqualTo(Map.of("repo", repo, "team", "core"));

    assertError(
        v1(WRITER).body(Map.of("name", "renamed")).post(store).then().extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(WRITER)
            .body(Map.of("metadata", Map.of("repo", "other/repo")))
            .post(store)
            .then()
            .extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(WRITER).body("{\"metadata\":{\"repo\":null}}").post(store).then().extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(READER).body(Map.of("description", "x")).post(store).then().extract(),
        403,
        "permission_error");
    assertError(v1(WIDGETS_READER).get(store).then().extract(), 404, "not_found_error");
    assertError(v1(WRITER).get(STORES + "/memstore_nope").then().extract(), 404, "not_found_error");
  }

  @Test
  void archivedStoreIsReadableButRefusesWritesThroughBothApis() {
    String repo = fresh("store-archive");
    String id = storeOf(repo);
    createMemory(id, "/a.md", "one");

    JsonPath archived =
        v1(WRITER).post(STORES + "/" + id + "/archive").then().statusCode(200).extract().jsonPath();
    assertThat(archived.getString("archived_at")).endsWith("Z");

    JsonPath refused =
        assertError(
            v1(WRITER)
                .body(Map.of("path", "/b.md", "content", "two"))
                .post(memories(id))
                .then()
                .extract(),
            400,
            "invalid_request_error");
    assertThat(refused.getString("error.message")).startsWith("cannot modify archived resource");
    assertThat(
            assertError(
                    v1(WRITER)
                        .body(Map.of("description", "x"))
                        .post(STORES + "/" + id)
                        .then()
                        .extract(),
                    400,
                    "invalid_request_error")
                .getString("error.message"))
        .startsWith("cannot modify archived resource");
    assertThat(
            as(WRITER)
                .queryParam("repo", repo)
                .body(entries("b.md", "two"))
                .put(PATH)
                .then()
                .statusCode(403)
                .extract()
                .jsonPath()
                .getString("error.details.error_code"))
        .isEqualTo("repository_archived");
    assertThat(
            v1(READER)
                .get(memories(id))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data"))
        .hasSize(1);

    assertThat(v1(READER).get(STORES).jsonPath().getList("data.id", String.class))
        .doesNotContain(id);
    assertThat(
            v1(READER)
                .queryParam("include_archived", "true")
                .get(STORES)
                .jsonPath()
                .getList("data.id", String.class))
        .contains(id);
  }

  @Test
  void archivedStoreRefusesEveryMemoryWriteButKeepsRedactionAndStoreDelete() {
    String repo = fresh("store-archive-writes");
    String id = storeOf(repo);
    JsonPath first = createMemory(id, "/a.md", "one");
    String memory = memories(id) + "/" + first.getString("id");
    String firstVersion = first.getString("memory_version_id");
    JsonPath second =
        v1(WRITER)
            .body(Map.of("content", "two"))
            .post(memory)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    v1(WRITER).post(STORES + "/" + id + "/archive").then().statusCode(200);

    List<ExtractableResponse<Response>> writes =
        List.of(
            v1(WRITER).body(Map.of("content", "three")).post(memory).then().extract(),
            // An update that would change nothing is refused too: the store takes no writes.
            v1(WRITER).body(Map.of("content", "two")).post(memory).then().extract(),
            v1(WRITER).body(Map.of("path", "/b.md")).post(memory).then().extract(),
            v1(WRITER).delete(memory).then().extract(),
            v1(WRITER)
                .queryParam("expected_content_sha256", second.getString("content_sha256"))
                .delete(memory)
                .then()
                .extract(),
            v1(WRITER).delete(memories(id) + "/mem_nope").then().extract());
    for (ExtractableResponse<Response> refused : writes) {
      assertThat(assertError(refused, 400, "invalid_request_error").getString("error.message"))
          .startsWith("cannot modify archived resource");
    }
    JsonPath unchanged = v1(READER).get(memory).then().statusCode(200).extract().jsonPath();
    assertThat(unchanged.getString("content")).isEqualTo("two");
    assertThat(unchanged.getString("path")).isEqualTo("/a.md");
    assertThat(
            v1(READER)
                .queryParam("memory_id", first.getString("id"))
                .get(versions(id))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data.id", String.class))
        .containsExactly(second.getString("memory_version_id"), firstVersion);

    // Redaction scrubs history (a leaked secret), which an archive, never undone, must not pin.
    assertThat(
            v1(WRITER)
                .post(versions(id) + "/" + firstVersion + "/redact")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("redacted_at"))
        .endsWith("Z");
    v1(WRITER).delete(STORES + "/" + id).then().statusCode(200);
    v1(READER).get(STORES + "/" + id).then().statusCode(404);
  }

  @Test
  void deleteTombstonesEveryMemoryKeepsHistoryAndRetiresTheId() {
    String repo = fresh("store-delete");
    put(repo, entries("a.md", "one", "b/c.md", "two"));
    String id = storeOf(repo);

    JsonPath deleted =
        v1(WRITER).delete(STORES + "/" + id).then().statusCode(200).extract().jsonPath();

    assertThat(deleted.getMap("$")).isEqualTo(Map.of("id", id, "type", "memory_store_deleted"));
    JsonPath full =
        as(READER).queryParam("repo", repo).get(PATH).then().statusCode(200).extract().jsonPath();
    assertThat(full.getMap("content.entries")).isEmpty();
    assertThat(full.getMap("deletedKeys"))
        .isEqualTo(
            Map.of("a.md", Checksums.ofContent("one"), "b/c.md", Checksums.ofContent("two")));
    assertThat(
            as(READER)
                .queryParam("repo", repo)
                .queryParam("key", "a.md")
                .get(PATH + "/history")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("versions.content", String.class))
        .containsExactly("", "one");
    assertError(v1(READER).get(STORES + "/" + id).then().extract(), 404, "not_found_error");
    assertThat(storeOf(repo)).isNotEqualTo(id);
  }
}
