package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.stores.StoreApi.assertError;
import static dev.teammemory.server.stores.StoreApi.createMemory;
import static dev.teammemory.server.stores.StoreApi.memories;
import static dev.teammemory.server.stores.StoreApi.storeOf;
import static dev.teammemory.server.stores.StoreApi.v1;
import static dev.teammemory.server.stores.StoreApi.versions;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MemoryVersionsResourceTest {

  private static JsonPath list(String storeId, Map<String, String> query) {
    return v1(READER)
        .queryParams(query)
        .get(versions(storeId))
        .then()
        .statusCode(200)
        .extract()
        .jsonPath();
  }

  @Test
  void versionsListNewestFirstFilteredByMemoryAndOperation() {
    String id = storeOf(fresh("ver-list"));
    String memoryId = createMemory(id, "/a.md", "one").getString("id");
    v1(WRITER)
        .body(Map.of("content", "two"))
        .post(memories(id) + "/" + memoryId)
        .then()
        .statusCode(200);
    String other = createMemory(id, "/b.md", "other").getString("id");
    v1(WRITER).delete(memories(id) + "/" + memoryId).then().statusCode(200);

    JsonPath all = list(id, Map.of());
    assertThat(all.getList("data.operation"))
        .containsExactly("deleted", "created", "modified", "created");
    assertThat(all.getList("data.memory_id")).containsExactly(memoryId, other, memoryId, memoryId);
    assertThat(all.getList("data.type")).containsOnly("memory_version");
    assertThat(all.getList("data.memory_store_id")).containsOnly(id);
    assertThat(all.getList("data.content")).containsOnlyNulls();
    assertThat(all.getString("data[1].content_sha256")).hasSize(64);
    assertThat(all.getInt("data[1].content_size_bytes")).isEqualTo(5);
    assertThat(all.getString("data[1].path")).isEqualTo("/b.md");
    assertThat(all.getString("data[1].created_by.type")).isEqualTo("user_actor");
    assertThat(all.getString("data[1].created_by.user_id")).isEqualTo("alice");
    assertThat(all.getMap("data[0]")).containsEntry("content", null).containsEntry("path", "/a.md");

    JsonPath mine = list(id, Map.of("memory_id", memoryId, "view", "full"));
    assertThat(mine.getList("data.content")).containsExactly(null, "two", "one");
    assertThat(list(id, Map.of("operation", "modified")).getList("data.memory_id"))
        .containsExactly(memoryId);
    assertThat(list(id, Map.of("created_at[gte]", "2999-01-01T00:00:00Z")).getList("data"))
        .isEmpty();
    assertThat(list(id, Map.of("created_at[lte]", "2999-01-01T00:00:00Z")).getList("data"))
        .hasSize(4);
    assertError(
        v1(READER).queryParam("operation", "moved").get(versions(id)).then().extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(READER).queryParam("created_at[gte]", "yesterday").get(versions(id)).then().extract(),
        400,
        "invalid_request_error");
  }

  @Test
  void versionsPageWithACursor() {
    String id = storeOf(fresh("ver-pages"));
    String memoryId = createMemory(id, "/a.md", "0").getString("id");
    for (int i = 1; i < 25; i++) {
      v1(WRITER)
          .body(Map.of("content", Integer.toString(i)))
          .post(memories(id) + "/" + memoryId)
          .then()
          .statusCode(200);
    }
    List<String> contents = new ArrayList<>();
    String page = null;
    do {
      Map<String, String> query = new LinkedHashMap<>(Map.of("limit", "10", "view", "full"));
      if (page != null) {
        query.put("page", page);
      }
      JsonPath listed = list(id, query);
      contents.addAll(listed.getList("data.content", String.class));
      page = listed.getString("next_page");
    } while (page != null);
    assertThat(contents).hasSize(25).startsWith("24", "23").endsWith("1", "0");
  }

  @Test
  void aFullPageEndsOnceItsContentsReachThePageBytesAndTheCursorGoesOn() {
    String id = storeOf(fresh("ver-bytes"));
    String memoryId = createMemory(id, "/big.md", "0".repeat(100_000)).getString("id");
    for (int i = 1; i < 4; i++) {
      v1(WRITER)
          .body(Map.of("content", Integer.toString(i).repeat(100_000)))
          .post(memories(id) + "/" + memoryId)
          .then()
          .statusCode(200);
    }
    List<Integer> pageSizes = new ArrayList<>();
    List<String> firstCharacters = new ArrayList<>();
    String page = null;
    do {
      Map<String, String> query = new LinkedHashMap<>(Map.of("view", "full"));
      if (page != null) {
        query.put("page", page);
      }
      JsonPath listed = list(id, query);
      List<String> contents = listed.getList("data.content", String.class);
      pageSizes.add(contents.size());
      contents.forEach(content -> firstCharacters.add(content.substring(0, 1)));
      page = listed.getString("next_page");
    } while (page != null);
    // 300,000 bytes a page in the tests: three contents of 100,000 fit, a fourth would not.
    assertThat(pageSizes).containsExactly(3, 1);
    assertThat(firstCharacters).containsExactly("3", "2", "1", "0");
    // Without contents, one page holds them all.
    assertThat(list(id, Map.of()).getList("data")).hasSize(4);
  }

  @Test
  void retrieveAndRedactAnOldVersionButNotTheCurrentOne() {
    String id = storeOf(fresh("ver-redact"));
    JsonPath created = createMemory(id, "/a.md", "oops");
    String first = created.getString("memory_version_id");
    String current =
        v1(WRITER)
            .body(Map.of("content", "fixed"))
            .post(memories(id) + "/" + created.getString("id"))
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getString("memory_version_id");

    JsonPath old =
        v1(READER).get(versions(id) + "/" + first).then().statusCode(200).extract().jsonPath();
    assertThat(old.getString("content")).isEqualTo("oops");
    assertThat(old.getString("operation")).isEqualTo("created");
    JsonPath basic =
        v1(READER)
            .queryParam("view", "basic")
            .get(versions(id) + "/" + first)
            .then()
            .extract()
            .jsonPath();
    assertThat(basic.getMap("$")).containsEntry("content", null);

    JsonPath refused =
        assertError(
            v1(WRITER).post(versions(id) + "/" + current + "/redact").then().extract(),
            400,
            "invalid_request_error");
    assertThat(refused.getString("error.message")).contains("current version");
    assertError(
        v1(READER).post(versions(id) + "/" + first + "/redact").then().extract(),
        403,
        "permission_error");

    JsonPath redacted =
        v1(WRITER)
            .post(versions(id) + "/" + first + "/redact")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(redacted.getString("id")).isEqualTo(first);
    assertThat(redacted.getString("redacted_at")).endsWith("Z");
    assertThat(redacted.getString("redacted_by.user_id")).isEqualTo("alice");
    assertThat(redacted.getMap("$"))
        .containsEntry("content", null)
        .containsEntry("path", null)
        .containsEntry("content_sha256", null)
        .containsEntry("content_size_bytes", null);
    assertThat(v1(READER).get(versions(id) + "/" + first).then().extract().jsonPath().getMap("$"))
        .containsEntry("content", null);

    assertError(
        v1(READER).get(versions(id) + "/memver_999999999").then().extract(),
        404,
        "not_found_error");
    assertError(v1(READER).get(versions(id) + "/nope").then().extract(), 404, "not_found_error");
  }
}
