package dev.teammemory.server.stores;

import static dev.teammemory.server.stores.StoreApi.STORES;
import static dev.teammemory.server.stores.StoreApi.v1;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint of the Memory Stores API and the export, called in one fixed script, answers byte
 * for byte as recorded in {@code golden/store-api.txt}: status, content type and body of each step.
 * What differs from run to run (ids, times, the repository's name, page cursors and request ids) is
 * replaced by numbered placeholders in order of first appearance, so an id that comes back in a
 * later answer must be the same id. A change of an answer is a change of the wire contract:
 * re-record with {@code -Dgolden.record=true} only when MEMORY-STORES.md changed with it.
 */
@QuarkusTest
class StoreApiGoldenTest {

  /** frank: write access to {@code golden/*} only, so the listing shows this run's store alone. */
  private static final String TOKEN = "golden-token";

  private static final Path GOLDEN = Path.of("src/test/resources/golden/store-api.txt");
  private static final Path WRITES = Path.of("src/test/resources/golden/store-api-writes.txt");

  /** A token shape the secret rules find (split, so that this file holds no secret). */
  private static final String GITHUB_TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zA1bC2";

  @Test
  void everyStoreEndpointAndTheExportAnswerAsRecorded() throws IOException {
    Transcript transcript =
        new Transcript("golden/" + UUID.randomUUID().toString().substring(0, 8));
    String repo = transcript.repo;
    Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);

    var store =
        transcript.step(
            "create a store",
            v1(TOKEN)
                .body(
                    Map.of("name", repo, "description", "golden", "metadata", Map.of("repo", repo)))
                .post(STORES));
    String storeId = store.jsonPath().getString("id");
    String storePath = STORES + "/" + storeId;
    String memories = storePath + "/memories";
    transcript.step(
        "create the same store again",
        v1(TOKEN).body(Map.of("name", repo, "metadata", Map.of("repo", repo))).post(STORES));
    transcript.step("retrieve the store", v1(TOKEN).get(storePath));
    transcript.step(
        "update the store",
        v1(TOKEN).body(Map.of("description", "golden, updated")).post(storePath));
    transcript.step(
        "list stores", v1(TOKEN).queryParam("created_at[gte]", start.toString()).get(STORES));

    var first =
        transcript.step(
            "create a memory",
            v1(TOKEN)
                .body(Map.of("path", "/notes/testing.md", "content", "Use real parts.\n"))
                .post(memories));
    String firstId = first.jsonPath().getString("id");
    String firstSha = first.jsonPath().getString("content_sha256");
    transcript.step(
        "create a second memory, not_exists",
        v1(TOKEN)
            .body(
                Map.of(
                    "path",
                    "/MEMORY.md",
                    "content",
                    "- [testing](notes/testing.md)\n",
                    "precondition",
                    Map.of("type", "not_exists")))
            .post(memories));
    transcript.step(
        "create at a taken path",
        v1(TOKEN).body(Map.of("path", "/notes/testing.md", "content", "again")).post(memories));
    transcript.step("list memories", v1(TOKEN).get(memories));
    transcript.step(
        "list memories, full view, by path, one a page",
        v1(TOKEN)
            .queryParam("view", "full")
            .queryParam("order_by", "path")
            .queryParam("limit", "1")
            .get(memories));
    transcript.step(
        "list memories under a prefix, depth 1",
        v1(TOKEN).queryParam("path_prefix", "/notes/").queryParam("depth", "1").get(memories));
    transcript.step("retrieve a memory", v1(TOKEN).get(memories + "/" + firstId));
    transcript.step(
        "retrieve a memory, basic view",
        v1(TOKEN).queryParam("view", "basic").get(memories + "/" + firstId));
    var updated =
        transcript.step(
            "update a memory's content with its sha",
            v1(TOKEN)
                .body(
                    Map.of(
                        "content",
                        "Use real parts; no mocks.\n",
                        "precondition",
                        Map.of("type", "content_sha256", "content_sha256", firstSha)))
                .post(memories + "/" + firstId));
    transcript.step(
        "update with a stale sha",
        v1(TOKEN)
            .body(
                Map.of(
                    "content",
                    "lost",
                    "precondition",
                    Map.of("type", "content_sha256", "content_sha256", firstSha)))
            .post(memories + "/" + firstId));
    transcript.step(
        "rename a memory",
        v1(TOKEN).body(Map.of("path", "/notes/no-mocks.md")).post(memories + "/" + firstId));

    var versions = transcript.step("list versions", v1(TOKEN).get(storePath + "/memory_versions"));
    transcript.step(
        "list one memory's versions, full view",
        v1(TOKEN)
            .queryParam("memory_id", firstId)
            .queryParam("view", "full")
            .get(storePath + "/memory_versions"));
    String oldest = versions.jsonPath().getString("data[-1].id");
    transcript.step("retrieve a version", v1(TOKEN).get(storePath + "/memory_versions/" + oldest));
    String replaced = updated.jsonPath().getString("memory_version_id");
    transcript.step(
        "redact a version",
        v1(TOKEN)
            .post(
                storePath
                    + "/memory_versions/"
                    + first.jsonPath().getString("memory_version_id")
                    + "/redact"));
    transcript.step(
        "redact the current version",
        v1(TOKEN).post(storePath + "/memory_versions/" + replaced + "/redact"));

    transcript.step("export", v1(TOKEN).get(memories + "/export"));

    transcript.step(
        "delete with a stale sha",
        v1(TOKEN).queryParam("expected_content_sha256", firstSha).delete(memories + "/" + firstId));
    transcript.step("delete a memory", v1(TOKEN).delete(memories + "/" + firstId));
    transcript.step("retrieve a deleted memory", v1(TOKEN).get(memories + "/" + firstId));
    transcript.step("a body that is not JSON", v1(TOKEN).body("{\"path\":").post(memories));
    transcript.step("no token", given().queryParam("beta", "true").get(storePath));
    transcript.step("archive the store", v1(TOKEN).post(storePath + "/archive"));
    transcript.step(
        "create in an archived store",
        v1(TOKEN).body(Map.of("path", "/late.md", "content", "late")).post(memories));
    transcript.step("delete the store", v1(TOKEN).delete(storePath));

    transcript.assertRecorded(GOLDEN);
  }

  /**
   * The write paths the first script leaves out, each answer recorded the same way in {@code
   * golden/store-api-writes.txt}: the refusals of every write (a taken path under {@code
   * not_exists}, a path inside a memory, a secret, a rename onto a memory, an unchanged update with
   * a stale precondition, writes to an archived store, a missing memory), the deletion of a store
   * that holds memories, and what {@code team_memory} sees of those writes (its version and
   * checksums move with them).
   */
  @Test
  void everyStoreWriteAndItsRefusalsAnswerAsRecorded() throws IOException {
    Transcript transcript =
        new Transcript("golden/" + UUID.randomUUID().toString().substring(0, 8));
    String repo = transcript.repo;
    String teamMemory = "/api/claude_code/team_memory";
    String storeId =
        transcript
            .step(
                "create a store named by its repository",
                v1(TOKEN).body(Map.of("name", repo)).post(STORES))
            .jsonPath()
            .getString("id");
    String storePath = STORES + "/" + storeId;
    String memories = storePath + "/memories";
    var note =
        transcript.step(
            "create a memory",
            v1(TOKEN).body(Map.of("path", "/a.md", "content", "alpha\n")).post(memories));
    String noteId = note.jsonPath().getString("id");
    String noteSha = note.jsonPath().getString("content_sha256");
    transcript.step(
        "create at a taken path, not_exists",
        v1(TOKEN)
            .body(
                Map.of(
                    "path",
                    "/a.md",
                    "content",
                    "again",
                    "precondition",
                    Map.of("type", "not_exists")))
            .post(memories));
    transcript.step(
        "create inside a memory's path",
        v1(TOKEN).body(Map.of("path", "/a.md/b.md", "content", "inside")).post(memories));
    transcript.step(
        "create with a secret",
        v1(TOKEN)
            .body(Map.of("path", "/leak.md", "content", "token " + GITHUB_TOKEN + "\n"))
            .post(memories));
    var other =
        transcript.step(
            "create a second memory in a folder",
            v1(TOKEN).body(Map.of("path", "/dir/b.md", "content", "beta\n")).post(memories));
    String otherId = other.jsonPath().getString("id");
    transcript.step(
        "update changing nothing, stale precondition",
        v1(TOKEN)
            .body(
                Map.of(
                    "content",
                    "alpha\n",
                    "precondition",
                    Map.of("type", "content_sha256", "content_sha256", "0".repeat(64))))
            .post(memories + "/" + noteId));
    transcript.step(
        "rename onto another memory",
        v1(TOKEN).body(Map.of("path", "/dir/b.md")).post(memories + "/" + noteId));
    transcript.step(
        "rename onto a folder",
        v1(TOKEN).body(Map.of("path", "/dir")).post(memories + "/" + noteId));
    transcript.step(
        "update with a secret",
        v1(TOKEN)
            .body(Map.of("content", "token " + GITHUB_TOKEN + "\n"))
            .post(memories + "/" + noteId));
    transcript.step(
        "rename and change content at once",
        v1(TOKEN)
            .body(
                Map.of(
                    "path",
                    "/dir/a.md",
                    "content",
                    "alpha, moved\n",
                    "precondition",
                    Map.of("type", "content_sha256", "content_sha256", noteSha)))
            .post(memories + "/" + noteId));
    transcript.step(
        "update a missing memory",
        v1(TOKEN).body(Map.of("content", "x")).post(memories + "/mem_missing"));
    transcript.step("delete a missing memory", v1(TOKEN).delete(memories + "/mem_missing"));
    transcript.step(
        "redact a missing version",
        v1(TOKEN).post(storePath + "/memory_versions/memver_999999999/redact"));
    transcript.step(
        "team_memory's hashes after the store's writes",
        given()
            .auth()
            .oauth2(TOKEN)
            .queryParam("repo", repo)
            .queryParam("view", "hashes")
            .get(teamMemory));
    transcript.step(
        "team_memory's history of the renamed key",
        given()
            .auth()
            .oauth2(TOKEN)
            .queryParam("repo", repo)
            .queryParam("key", "a.md")
            .get(teamMemory + "/history"));
    transcript.step(
        "export, basic view", v1(TOKEN).queryParam("view", "basic").get(memories + "/export"));

    transcript.step("archive the store", v1(TOKEN).post(storePath + "/archive"));
    transcript.step("archive it again", v1(TOKEN).post(storePath + "/archive"));
    transcript.step(
        "update an archived store", v1(TOKEN).body(Map.of("description", "late")).post(storePath));
    transcript.step(
        "update a memory of an archived store",
        v1(TOKEN).body(Map.of("content", "late")).post(memories + "/" + otherId));
    transcript.step(
        "delete a memory of an archived store", v1(TOKEN).delete(memories + "/" + otherId));
    transcript.step(
        "redact an old version in an archived store",
        v1(TOKEN)
            .post(
                storePath
                    + "/memory_versions/"
                    + note.jsonPath().getString("memory_version_id")
                    + "/redact"));
    transcript.step("delete the store with its memories", v1(TOKEN).delete(storePath));
    transcript.step("retrieve the deleted store", v1(TOKEN).get(storePath));
    transcript.step(
        "write to the deleted store",
        v1(TOKEN).body(Map.of("path", "/c.md", "content", "gamma")).post(memories));
    transcript.step(
        "team_memory's hashes after the store's deletion",
        given()
            .auth()
            .oauth2(TOKEN)
            .queryParam("repo", repo)
            .queryParam("view", "hashes")
            .get(teamMemory));
    transcript.step(
        "the repository's new store", v1(TOKEN).body(Map.of("name", repo)).post(STORES));

    transcript.assertRecorded(WRITES);
  }

  /** The answers so far, each with its run-specific parts replaced by stable placeholders. */
  private static final class Transcript {

    private static final Pattern IDS = Pattern.compile("\\b(memstore|memver|mem)_[A-Za-z0-9_-]+");
    private static final Pattern TIMES =
        Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})");
    private static final Pattern REQUEST_IDS = Pattern.compile("\"request_id\":\"[^\"]*\"");
    private static final Pattern PAGES = Pattern.compile("\"next_page\":\"[^\"]*\"");

    private final String repo;
    private final StringBuilder text = new StringBuilder();
    private final Map<String, String> placeholders = new LinkedHashMap<>();
    private final Map<String, Integer> counters = new LinkedHashMap<>();

    Transcript(String repo) {
      this.repo = repo;
    }

    ExtractableResponse<Response> step(String name, Response response) {
      ExtractableResponse<Response> answer = response.then().extract();
      text.append("### ")
          .append(name)
          .append('\n')
          .append(answer.statusCode())
          .append(' ')
          .append(answer.contentType())
          .append('\n')
          .append(normalise(answer.body().asString()))
          .append("\n\n");
      return answer;
    }

    private String normalise(String body) {
      String stable = body.replace(repo, "<repo>");
      stable = replaceEach(stable, REQUEST_IDS, match -> "\"request_id\":\"<request>\"");
      stable =
          replaceEach(
              stable, PAGES, match -> "\"next_page\":\"" + placeholder("page", match) + "\"");
      stable =
          replaceEach(
              stable, IDS, match -> placeholder(match.substring(0, match.indexOf('_')), match));
      return replaceEach(stable, TIMES, match -> placeholder("time", match));
    }

    private String placeholder(String kind, String value) {
      return placeholders.computeIfAbsent(
          value, unseen -> "<" + kind + "-" + counters.merge(kind, 1, Integer::sum) + ">");
    }

    private static String replaceEach(String text, Pattern pattern, UnaryOperator<String> by) {
      Matcher matcher = pattern.matcher(text);
      StringBuilder out = new StringBuilder();
      while (matcher.find()) {
        matcher.appendReplacement(out, Matcher.quoteReplacement(by.apply(matcher.group())));
      }
      return matcher.appendTail(out).toString();
    }

    /** Records the transcript with {@code -Dgolden.record=true}, else compares it. */
    void assertRecorded(Path golden) throws IOException {
      String actual = text.toString();
      if (Boolean.getBoolean("golden.record")) {
        Files.createDirectories(golden.getParent());
        Files.writeString(golden, actual, StandardCharsets.UTF_8);
      }
      assertThat(actual).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
  }
}
