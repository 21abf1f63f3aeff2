package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
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
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One model, two APIs: a write through either is visible through the other at once. */
@QuarkusTest
class CrossApiTest {

  @Test
  void aTeamMemoryPutIsANewVersionThroughTheStoreApi() {
    String repo = fresh("cross-put");
    put(repo, entries("a.md", "one"));
    String id = storeOf(repo);
    JsonPath before = v1(READER).get(memories(id)).jsonPath();
    String memoryId = before.getString("data[0].id");

    put(repo, entries("a.md", "two"));

    JsonPath memory =
        v1(READER).get(memories(id) + "/" + memoryId).then().statusCode(200).extract().jsonPath();
    assertThat(memory.getString("content")).isEqualTo("two");
    assertThat(memory.getString("memory_version_id"))
        .isNotEqualTo(before.getString("data[0].memory_version_id"));
    JsonPath history =
        v1(READER)
            .queryParam("memory_id", memoryId)
            .queryParam("view", "full")
            .get(versions(id))
            .jsonPath();
    assertThat(history.getList("data.operation")).containsExactly("modified", "created");
    assertThat(history.getList("data.content")).containsExactly("two", "one");
  }

  @Test
  void aStoreApiWriteIsANewRepositoryVersionWithTheChecksumTeamMemoryReports() {
    String repo = fresh("cross-v1");
    put(repo, entries("a.md", "one"));
    long version = hashes(repo).jsonPath().getLong("version");
    String id = storeOf(repo);

    JsonPath created = createMemory(id, "/notes/b.md", "two");

    JsonPath view = hashes(repo).jsonPath();
    assertThat(view.getLong("version")).isEqualTo(version + 1);
    assertThat(view.getString("checksum"))
        .isEqualTo(
            Checksums.ofRepository(
                Map.of(
                    "a.md", Checksums.ofContent("one"), "notes/b.md", Checksums.ofContent("two"))));
    assertThat(view.getString("entryChecksums.'notes/b.md'"))
        .isEqualTo("sha256:" + created.getString("content_sha256"));
    JsonPath full =
        as(READER).queryParam("repo", repo).get(PATH).then().statusCode(200).extract().jsonPath();
    assertThat(full.getMap("content.entries"))
        .isEqualTo(Map.of("a.md", "one", "notes/b.md", "two"));
    assertThat(full.getString("checksum")).isEqualTo(view.getString("checksum"));
    assertThat(
            as(READER)
                .queryParam("repo", repo)
                .queryParam("key", "notes/b.md")
                .get(PATH + "/history")
                .jsonPath()
                .getString("versions[0].author"))
        .isEqualTo("alice");

    v1(WRITER).delete(memories(id) + "/" + created.getString("id")).then().statusCode(200);
    assertThat(hashes(repo).jsonPath().getMap("deletedKeys"))
        .isEqualTo(Map.of("notes/b.md", Checksums.ofContent("two")));
  }

  @Test
  void anEntryOverTheStoreLimitWrittenThroughTeamMemoryIsServedButNotWrittenAgain() {
    String repo = fresh("cross-large");
    String large = "x".repeat(150_000);
    put(repo, entries("large.md", large));
    String id = storeOf(repo);
    String memoryId = v1(READER).get(memories(id)).jsonPath().getString("data[0].id");

    JsonPath served =
        v1(READER).get(memories(id) + "/" + memoryId).then().statusCode(200).extract().jsonPath();
    assertThat(served.getString("content")).isEqualTo(large);
    assertThat(served.getInt("content_size_bytes")).isEqualTo(150_000);

    assertError(
        v1(WRITER)
            .body(Map.of("content", large + "y"))
            .post(memories(id) + "/" + memoryId)
            .then()
            .extract(),
        400,
        "invalid_request_error");
    v1(WRITER)
        .body(Map.of("content", "small"))
        .post(memories(id) + "/" + memoryId)
        .then()
        .statusCode(200);
  }
}
