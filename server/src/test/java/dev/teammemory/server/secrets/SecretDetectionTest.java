package dev.teammemory.server.secrets;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SecretDetectionTest {

  /** A token of GitHub's classic format, built here so that no scanner flags this file. */
  private static final String GITHUB_TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zA1bC2";

  @Test
  void putWithASecretReturns422WithRuleKeyAndLineButNeverTheSecretAndWritesNothing() {
    String repo = fresh("secret");
    put(repo, entries("a.md", "one"));
    JsonPath before = hashes(repo).jsonPath();

    String body =
        as(WRITER)
            .queryParam("repo", repo)
            .body(
                entries(
                    "clean.md",
                    "nothing here",
                    "notes/setup.md",
                    "# Setup\n\nexport GITHUB_TOKEN=" + GITHUB_TOKEN + "\n"))
            .put(PATH)
            .then()
            .statusCode(422)
            .contentType("application/json")
            .extract()
            .asString();

    JsonPath error = JsonPath.from(body);
    assertThat(error.getString("error.details.error_code")).isEqualTo("secret_detected");
    List<Map<String, Object>> findings = error.getList("error.details.findings");
    assertThat(findings)
        .containsExactly(
            Map.of("key", "notes/setup.md", "ruleId", "github-pat", "line", 3, "field", "content"));
    assertThat(body).doesNotContain(GITHUB_TOKEN).doesNotContain(GITHUB_TOKEN.substring(4));
    JsonPath after = hashes(repo).jsonPath();
    assertThat(after.getString("checksum")).isEqualTo(before.getString("checksum"));
    assertThat(after.getMap("entryChecksums")).containsOnlyKeys("a.md");
  }

  @Test
  void secretIsRefusedEvenInANeverWrittenRepositoryWhichStaysNeverWritten() {
    String repo = fresh("secret-new");
    as(WRITER)
        .queryParam("repo", repo)
        .body(entries("a.md", GITHUB_TOKEN))
        .put(PATH)
        .then()
        .statusCode(422);
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
  }

  @Test
  void staleIfMatchIsReportedBeforeASecret() {
    String repo = fresh("secret-order");
    put(repo, entries("a.md", "one"));
    as(WRITER)
        .queryParam("repo", repo)
        .header("If-Match", "\"sha256:" + "0".repeat(64) + '"')
        .body(entries("a.md", GITHUB_TOKEN))
        .put(PATH)
        .then()
        .statusCode(412);
  }
}
