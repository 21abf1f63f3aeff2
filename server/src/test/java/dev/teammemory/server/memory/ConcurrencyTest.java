package dev.teammemory.server.memory;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Concurrent writers serialise per repository and never lose an acknowledged write. */
@QuarkusTest
class ConcurrencyTest {

  private static final int WRITERS = 6;
  private static final int PUTS_PER_WRITER = 12;

  /** One acknowledged PUT: what it wrote and the version the server gave it. */
  private record Acknowledged(String key, String content, long version) {}

  @Test
  void concurrentConditionalWritersLoseNoAcknowledgedWriteAndVersionsStrictlyIncrease()
      throws Exception {
    String repo = fresh("concurrent");
    List<List<Acknowledged>> perWriter = run(repo, true);

    assertAllKept(repo, perWriter);
  }

  @Test
  void concurrentUnconditionalFirstWritersAllApplyToOneRepository() throws Exception {
    String repo = fresh("first-writers");
    List<List<Acknowledged>> perWriter = run(repo, false);

    assertAllKept(repo, perWriter);
  }

  private List<List<Acknowledged>> run(String repo, boolean conditional) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<List<Acknowledged>>> futures = new ArrayList<>();
      for (int writer = 0; writer < WRITERS; writer++) {
        int id = writer;
        Callable<List<Acknowledged>> task =
            () -> conditional ? conditionalWrites(repo, id) : unconditionalWrites(repo, id);
        futures.add(pool.submit(task));
      }
      List<List<Acknowledged>> results = new ArrayList<>();
      for (Future<List<Acknowledged>> future : futures) {
        results.add(future.get(5, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Each PUT chains If-Match; on 412 it probes the hashes view and retries, as clients do. */
  private static List<Acknowledged> conditionalWrites(String repo, int writer) {
    List<Acknowledged> acknowledged = new ArrayList<>();
    String known = Checksums.EMPTY;
    for (int i = 0; i < PUTS_PER_WRITER; i++) {
      String key = "writer-" + writer + "/put-" + i + ".md";
      String content = "written by " + writer + " as number " + i;
      while (true) {
        ExtractableResponse<Response> response =
            as(WRITER)
                .queryParam("repo", repo)
                .header("If-Match", '"' + known + '"')
                .body(entries(key, content, "shared.md", content))
                .put(PATH)
                .then()
                .extract();
        if (response.statusCode() == 200) {
          known = response.jsonPath().getString("checksum");
          acknowledged.add(new Acknowledged(key, content, response.jsonPath().getLong("version")));
          break;
        }
        assertThat(response.statusCode()).isEqualTo(412);
        ExtractableResponse<Response> probe =
            as(WRITER)
                .queryParam("repo", repo)
                .queryParam("view", "hashes")
                .get(PATH)
                .then()
                .extract();
        known =
            probe.statusCode() == 404 ? Checksums.EMPTY : probe.jsonPath().getString("checksum");
      }
    }
    return acknowledged;
  }

  private static List<Acknowledged> unconditionalWrites(String repo, int writer) {
    List<Acknowledged> acknowledged = new ArrayList<>();
    for (int i = 0; i < PUTS_PER_WRITER; i++) {
      String key = "writer-" + writer + "/put-" + i + ".md";
      String content = "written by " + writer + " as number " + i;
      JsonPath body =
          as(WRITER)
              .queryParam("repo", repo)
              .body(entries(key, content, "shared.md", content))
              .put(PATH)
              .then()
              .statusCode(200)
              .extract()
              .jsonPath();
      acknowledged.add(new Acknowledged(key, content, body.getLong("version")));
    }
    return acknowledged;
  }

  private static void assertAllKept(String repo, List<List<Acknowledged>> perWriter) {
    Set<Long> versions = new HashSet<>();
    Map<String, String> expected = new HashMap<>();
    long newestVersion = 0;
    String newestShared = null;
    for (List<Acknowledged> writes : perWriter) {
      assertThat(writes).hasSize(PUTS_PER_WRITER);
      long previous = 0;
      for (Acknowledged write : writes) {
        assertThat(write.version()).isGreaterThan(previous);
        previous = write.version();
        assertThat(versions.add(write.version()))
            .as("version %d acknowledged twice", write.version())
            .isTrue();
        expected.put(write.key(), write.content());
        if (write.version() > newestVersion) {
          newestVersion = write.version();
          newestShared = write.content();
        }
      }
    }
    int total = WRITERS * PUTS_PER_WRITER;
    assertThat(versions).hasSize(total);
    assertThat(newestVersion).isEqualTo(total);
    expected.put("shared.md", newestShared);

    JsonPath state =
        as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(200).extract().jsonPath();
    assertThat(state.getLong("version")).isEqualTo(total);
    assertThat(state.getMap("content.entries")).isEqualTo(expected);
    assertThat(state.getString("checksum"))
        .isEqualTo(Checksums.ofRepository(state.getMap("content.entryChecksums")));
    assertThat(hashes(repo).jsonPath().getString("checksum"))
        .isEqualTo(state.getString("checksum"));
  }
}
