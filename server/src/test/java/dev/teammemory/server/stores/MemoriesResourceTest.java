package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.stores.StoreApi.assertError;
import static dev.teammemory.server.stores.StoreApi.createMemory;
import static dev.teammemory.server.stores.StoreApi.memories;
import static dev.teammemory.server.stores.StoreApi.storeOf;
import static dev.teammemory.server.stores.StoreApi.v1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MemoriesResourceTest {

  private static final String GITHUB_TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zA1bC2";

  private static String hex(String content) {
    return Checksums.ofContent(content).substring("sha256:".length());
  }

  private static ExtractableResponse<Response> create(String storeId, Object body) {
    return v1(WRITER).body(body).post(memories(storeId)).then().extract();
  }

  private static ExtractableResponse<Response> update(
      String storeId, String memoryId, Object body) {
    return v1(WRITER).body(body).post(memories(storeId) + "/" + memoryId).then().extract();
  }

  @Test
  void createAnswersTheMemoryAndRetrieveServesBothViews() {
    String id = storeOf(fresh("mem-create"));

    JsonPath created = createMemory(id, "/testing/no-mocks.md", "Use real parts.");

    assertThat(created.getString("type")).isEqualTo("memory");
    assertThat(created.getString("id")).matches("mem_[A-Za-z0-9_-]{1,120}");
    assertThat(created.getString("memory_store_id")).isEqualTo(id);
    assertThat(created.getString("path")).isEqualTo("/testing/no-mocks.md");
    assertThat(created.getString("content_sha256")).isEqualTo(hex("Use real parts."));
    assertThat(created.getInt("content_size_bytes")).isEqualTo(15);
    assertThat(created.getString("memory_version_id")).startsWith("memver_");
    assertThat(created.getString("content")).isEqualTo("Use real parts.");
    String memory = memories(id) + "/" + created.getString("id");

    JsonPath full = v1(READER).get(memory).then().statusCode(200).extract().jsonPath();
    assertThat(full.getMap("$")).isEqualTo(created.getMap("$"));
    JsonPath basic =
        v1(READER)
            .queryParam("view", "basic")
            .get(memory)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(basic.getMap("$")).containsEntry("content", null);
    assertThat(basic.getString("content_sha256")).isEqualTo(hex("Use real parts."));
    assertError(
        v1(READER).queryParam("view", "everything").get(memory).then().extract(),
        400,
        "invalid_request_error");
    assertError(
        v1(READER).get(memories(id) + "/mem_nope").then().extract(), 404, "not_found_error");
  }

  @Test
  void notExistsPreconditionAndPathConflictsAre409WithoutRetry() {
    String id = storeOf(fresh("mem-conflict"));
    String existing = createMemory(id, "/a/b.md", "one").getString("id");

    ExtractableResponse<Response> again =
        create(
            id,
            Map.of(
                "path", "/a/b.md", "content", "two", "precondition", Map.of("type", "not_exists")));
    assertError(again, 409, "memory_precondition_failed_error");
    assertThat(again.header("x-should-retry")).isEqualTo("false");

    for (String path : List.of("/a/b.md", "/a", "/a/b.md/c.md")) {
      ExtractableResponse<Response> conflict = create(id, Map.of("path", path, "content", "x"));
      JsonPath error = assertError(conflict, 409, "memory_path_conflict_error");
      assertThat(error.getString("error.conflicting_path")).isEqualTo("/a/b.md");
      assertThat(error.getString("error.conflicting_memory_id")).isEqualTo(existing);
      assertThat(conflict.header("x-should-retry")).isEqualTo("false");
    }
    assertError(
        create(
            id, Map.of("path", "/c.md", "content", "x", "precondition", Map.of("type", "other"))),
        400,
        "invalid_request_error");
  }

  @Test
  void everyPathRuleIsRefusedWithItsMessage() {
    String id = storeOf(fresh("mem-paths"));
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("/" + "a".repeat(1024), "path must be at most 1024 bytes");
    expected.put("/a".repeat(21), "path must be at most 20 segments deep");
    expected.put("/a/../b.md", "path must not contain . or .. segments");
    expected.put("/a/./b.md", "path must not contain . or .. segments");
    expected.put("/a\u0007.md", "path must not contain control or format characters");
    expected.put("/a\u200b.md", "path must not contain control or format characters");
    expected.put("/a\u2028.md", "path must not contain control or format characters");
    expected.put("/cafe\u0301.md", "path must be NFC-normalized");
    for (Map.Entry<String, String> rule : expected.entrySet()) {
      JsonPath error =
          assertError(
              create(id, Map.of("path", rule.getKey(), "content", "x")),
              400,
              "invalid_request_error");
      assertThat(error.getString("error.message")).as(rule.getKey()).isEqualTo(rule.getValue());
    }
    // PROTOCOL.md "Keys": no key a team_memory client would refuse.
    for (String path :
        List.of(
            "a.md",
            "/a//b.md",
            "/a\\b.md",
            "/" + "a".repeat(513),
            "/a%2Fb.md",
            "/a\uff0fb.md",
            "/",
            "/a/")) {
      assertError(create(id, Map.of("path", path, "content", "x")), 400, "invalid_request_error");
    }
    assertThat(v1(READER).get(memories(id)).jsonPath().getList("data")).isEmpty();
  }

  @Test
  void oversizedContentSecretsAndMalformedBodiesAreRefusedAndWriteNothing() {
    String repo = fresh("mem-refused");
    String id = storeOf(repo);
    JsonPath large =
        assertError(
            create(id, Map.of("path", "/big.md", "content", "x".repeat(102_401))),
            400,
            "invalid_request_error");
    assertThat(large.getString("error.message")).isEqualTo("content must be at most 102400 bytes");
    createMemory(id, "/exactly.md", "x".repeat(102_400));

    JsonPath secret =
        assertError(
            create(id, Map.of("path", "/token.md", "content", "token: " + GITHUB_TOKEN)),
            400,
            "invalid_request_error");
    assertThat(secret.getString("error.message"))
        .isEqualTo(
            "memory content appears to contain a credential or API key; remove it before writing."
                + " If the credential is real, rotate it.");
    assertThat(secret.prettify()).doesNotContain(GITHUB_TOKEN);

    assertError(create(id, "{\"path\":"), 400, "invalid_request_error");
    assertError(create(id, "[]"), 400, "invalid_request_error");
    assertError(create(id, Map.of("path", "/a.md")), 400, "invalid_request_error");
    assertError(create(id, Map.of("path", "/a.md", "content", 5)), 400, "invalid_request_error");
    assertError(create(id, Map.of("content", "x")), 400, "invalid_request_error");

    assertThat(v1(READER).get(memories(id)).jsonPath().getList("data.path"))
        .containsExactly("/exactly.md");
  }

  @Test
  void updateWithFreshAndStalePreconditionsRenameKeepsTheIdAndANoOpIs200() {
    String repo = fresh("mem-update");
    String id = storeOf(repo);
    JsonPath created = createMemory(id, "/a.md", "one");
    String memoryId = created.getString("id");

    JsonPath changed =
        update(
                id,
                memoryId,
                Map.of(
                    "content",
                    "two",
                    "precondition",
                    Map.of("type", "content_sha256", "content_sha256", hex("one"))))
            .jsonPath();
    assertThat(changed.getString("content")).isEqualTo("two");
    assertThat(changed.getString("memory_version_id"))
        .isNotEqualTo(created.getString("memory_version_id"));

    ExtractableResponse<Response> stale =
        update(
            id,
            memoryId,
            Map.of(
                "content",
                "three",
                "precondition",
                Map.of("type", "content_sha256", "content_sha256", hex("one"))));
    assertError(stale, 409, "memory_precondition_failed_error");
    assertThat(stale.header("x-should-retry")).isEqualTo("false");

    ExtractableResponse<Response> same =
        update(
            id,
            memoryId,
            Map.of(
                "content",
                "two",
                "path",
                "/a.md",
                "precondition",
                Map.of("type", "content_sha256", "content_sha256", hex("one"))));
    assertThat(same.statusCode()).isEqualTo(200);
    assertThat(same.jsonPath().getString("memory_version_id"))
        .isEqualTo(changed.getString("memory_version_id"));

    JsonPath renamed = update(id, memoryId, Map.of("path", "/notes/a.md")).jsonPath();
    assertThat(renamed.getString("id")).isEqualTo(memoryId);
    assertThat(renamed.getString("path")).isEqualTo("/notes/a.md");
    assertThat(renamed.getString("content")).isEqualTo("two");
    JsonPath teamMemory = as(READER).queryParam("repo", repo).get(PATH).then().extract().jsonPath();
    assertThat(teamMemory.getMap("content.entries")).isEqualTo(Map.of("notes/a.md", "two"));
    assertThat(teamMemory.getMap("deletedKeys")).containsOnlyKeys("a.md");

    assertError(
        update(
            id,
            memoryId,
            Map.of(
                "content",
                "x",
                "precondition",
                Map.of("type", "content_sha256", "content_sha256", "ABC"))),
        400,
        "invalid_request_error");
    assertError(update(id, "mem_nope", Map.of("content", "x")), 404, "not_found_error");
    assertError(
        v1(READER)
            .body(Map.of("content", "x"))
            .post(memories(id) + "/" + memoryId)
            .then()
            .extract(),
        403,
        "permission_error");
  }

  @Test
  void renamingOntoOrIntoAnotherMemorysPathIs409AndChangesNothing() {
    String id = storeOf(fresh("mem-rename-conflict"));
    String moving = createMemory(id, "/a.md", "one").getString("id");
    String other = createMemory(id, "/dir/b.md", "two").getString("id");

    for (String path : List.of("/dir/b.md", "/dir", "/dir/b.md/c.md")) {
      ExtractableResponse<Response> conflict = update(id, moving, Map.of("path", path));
      JsonPath error = assertError(conflict, 409, "memory_path_conflict_error");
      assertThat(error.getString("error.conflicting_memory_id")).isEqualTo(other);
      assertThat(conflict.header("x-should-retry")).isEqualTo("false");
    }
    assertThat(v1(READER).get(memories(id)).jsonPath().getList("data.path"))
        .containsExactly("/a.md", "/dir/b.md");
  }

  @Test
  void deleteWithAndWithoutAPrecondition() {
    String id = storeOf(fresh("mem-delete"));
    String first = createMemory(id, "/a.md", "one").getString("id");
    String second = createMemory(id, "/b.md", "two").getString("id");

    ExtractableResponse<Response> stale =
        v1(WRITER)
            .queryParam("expected_content_sha256", hex("other"))
            .delete(memories(id) + "/" + first)
            .then()
            .extract();
    assertError(stale, 409, "memory_precondition_failed_error");

    JsonPath deleted =
        v1(WRITER)
            .queryParam("expected_content_sha256", hex("one"))
            .delete(memories(id) + "/" + first)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(deleted.getMap("$")).isEqualTo(Map.of("id", first, "type", "memory_deleted"));
    v1(WRITER).delete(memories(id) + "/" + second).then().statusCode(200);

    assertError(
        v1(WRITER).delete(memories(id) + "/" + first).then().extract(), 404, "not_found_error");
    assertThat(v1(READER).get(memories(id)).jsonPath().getList("data")).isEmpty();
    // Delete-then-create is a new memory.
    assertThat(createMemory(id, "/a.md", "one").getString("id")).isNotEqualTo(first);
  }

  @Test
  void listFiltersByPrefixAndDepthInBothOrders() {
    String repo = fresh("mem-list");
    put(
        repo,
        entries(
            "a.md", "1", "dir/b.md", "2", "dir/sub/c.md", "3", "dir/sub/d.md", "4", "e.md", "5"));
    String id = storeOf(repo);

    assertThat(list(id, Map.of()).getList("data.path"))
        .containsExactly("/a.md", "/dir/b.md", "/dir/sub/c.md", "/dir/sub/d.md", "/e.md");
    assertThat(list(id, Map.of("order", "desc")).getList("data.path"))
        .containsExactly("/e.md", "/dir/sub/d.md", "/dir/sub/c.md", "/dir/b.md", "/a.md");
    assertThat(list(id, Map.of("path_prefix", "/dir/")).getList("data.path"))
        .containsExactly("/dir/b.md", "/dir/sub/c.md", "/dir/sub/d.md");
    JsonPath children = list(id, Map.of("depth", "1"));
    assertThat(children.getList("data.path")).containsExactly("/a.md", "/dir/", "/e.md");
    assertThat(children.getList("data.type")).containsExactly("memory", "memory_prefix", "memory");
    assertThat(
            list(id, Map.of("depth", "1", "path_prefix", "/dir/", "order", "desc"))
                .getList("data.path"))
        .containsExactly("/dir/sub/", "/dir/b.md");
    assertThat(list(id, Map.of()).getList("data.content")).containsOnlyNulls();
    assertThat(list(id, Map.of("view", "full")).getList("data.content"))
        .containsExactly("1", "2", "3", "4", "5");

    for (Map<String, String> bad :
        List.of(
            Map.of("path_prefix", "/dir"),
            Map.of("depth", "2"),
            Map.of("order", "up"),
            Map.of("order_by", "size"),
            Map.of("limit", "0"),
            Map.of("limit", "101"),
            Map.of("page", "bm90IGEgY3Vyc29y"))) {
      assertError(
          v1(READER).queryParams(bad).get(memories(id)).then().extract(),
          400,
          "invalid_request_error");
    }
  }

  @Test
  void paginationWalksOver250MemoriesInBothOrdersAndFullViewCapsAPageAt20() {
    String repo = fresh("mem-pages");
    Map<String, String> entries = new LinkedHashMap<>();
    for (int i = 0; i < 260; i++) {
      entries.put("notes/%03d.md".formatted(i), "memory " + i);
    }
    put(repo, Map.of("entries", entries));
    String id = storeOf(repo);

    List<String> ascending = walk(id, Map.of("limit", "100"), 100);
    assertThat(ascending).hasSize(260).isSorted();
    List<String> descending = walk(id, Map.of("limit", "100", "order", "desc"), 100);
    assertThat(descending).containsExactlyElementsOf(ascending.reversed());
    JsonPath firstPage = list(id, Map.of());
    assertThat(firstPage.getList("data")).hasSize(20);
    JsonPath fullPage = list(id, Map.of("view", "full", "limit", "100"));
    assertThat(fullPage.getList("data")).hasSize(20);
    assertThat(fullPage.getString("next_page")).isNotNull();
  }

  private static JsonPath list(String storeId, Map<String, String> query) {
    return v1(READER)
        .queryParams(query)
        .get(memories(storeId))
        .then()
        .statusCode(200)
        .extract()
        .jsonPath();
  }

  private static List<String> walk(String storeId, Map<String, String> query, int pageSize) {
    List<String> paths = new ArrayList<>();
    String page = null;
    do {
      Map<String, String> withPage = new LinkedHashMap<>(query);
      if (page != null) {
        withPage.put("page", page);
      }
      JsonPath listed = list(storeId, withPage);
      assertThat(listed.getList("data")).hasSizeLessThanOrEqualTo(pageSize);
      paths.addAll(listed.getList("data.path", String.class));
      page = listed.getString("next_page");
    } while (page != null);
    return paths;
  }
}
