package dev.teammemory.server.secrets;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.stores.StoreApi.STORES;
import static dev.teammemory.server.stores.StoreApi.memories;
import static dev.teammemory.server.stores.StoreApi.storeOf;
import static dev.teammemory.server.stores.StoreApi.v1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.server.CapturedLog;
import dev.teammemory.server.LegacyRows;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The server scans every text a caller sends to be kept, not only an entry's content: keys, memory
 * paths (a rename's too), a store's name, description and metadata. A refusal names the field and
 * never the match, and a key is logged only as the scan lets it be shown.
 */
@QuarkusTest
class SecretsInEveryFieldTest {

  /** Tokens of their rules' formats, built here so that no scanner flags this file. */
  private static final String GITHUB_TOKEN = "ghp_" + "Zx7Qw2Er4Ty6Ui8Op0As1Df3Gh5Jk7Lz9Xc2";

  private static final String AWS_KEY_ID = "AKIA" + "J7Q2ZKXW4MRT6PLN";
  private static final String AWS_SECRET = "kT9pQ2vX7mL4sR8nB3wE6yH1jF5dC0gA2zU7iO4e";

  @Inject DataSource database;

  @Test
  void aKeyHoldingASecretIsRefusedWith422NamingTheKeyRedactedAndNothingIsWritten() {
    String repo = fresh("secret-key");
    put(repo, entries("a.md", "one"));
    JsonPath before = hashes(repo).jsonPath();

    ExtractableResponse<Response> refused =
        as(WRITER)
            .queryParam("repo", repo)
            .body(entries("clean.md", "fine", "notes/" + GITHUB_TOKEN + ".md", "harmless"))
            .put(PATH)
            .then()
            .statusCode(422)
            .extract();

    JsonPath error = refused.jsonPath();
    assertThat(error.getString("error.details.error_code")).isEqualTo("secret_detected");
    assertThat(error.getList("error.details.findings"))
        .containsExactly(
            Map.of(
                "key", "notes/[REDACTED].md", "ruleId", "github-pat", "line", 1, "field", "key"));
    assertThat(error.getString("error.message"))
        .isEqualTo(
            "refused: 1 secret(s) found, the first by rule github-pat in the key"
                + " notes/[REDACTED].md itself; remove them and push again");
    assertThat(refused.asString())
        .doesNotContain(GITHUB_TOKEN)
        .doesNotContain(GITHUB_TOKEN.substring(4));
    assertThat(hashes(repo).jsonPath().getString("checksum"))
        .isEqualTo(before.getString("checksum"));
  }

  @Test
  void aGitleaksAllowCommentDoesNotSwitchTheServersScanOff() {
    String repo = fresh("secret-allow");

    refusedPut(repo, "token = " + GITHUB_TOKEN + " # gitleaks:allow\n", "github-pat");
  }

  @Test
  void aTokenNextToAnUnderscoreAndAnAwsSecretAccessKeyAreRefused() {
    String repo = fresh("secret-shapes");

    refusedPut(repo, "the token is __" + GITHUB_TOKEN + "__ in bold\n", "github-pat");
    refusedPut(repo, "GITHUB_TOKEN_" + GITHUB_TOKEN + "\n", "github-pat");
    refusedPut(repo, "aws_secret_access_key = " + AWS_SECRET + "\n", "aws-secret-access-key");
  }

  @Test
  void aStoredKeyHoldingASecretCanBeDeletedAndIsLoggedOnlyByItsRuleAndFingerprint()
      throws SQLException {
    String repo = fresh("secret-legacy");
    put(repo, entries("a.md", "one"));
    String key = "notes/" + GITHUB_TOKEN + ".md";
    // Written before keys were scanned.
    LegacyRows.storeEntry(database, repo, key, "harmless");

    try (CapturedLog log = CapturedLog.start()) {
      as(WRITER)
          .queryParam("repo", repo)
          .queryParam("key", key)
          .delete(PATH)
          .then()
          .statusCode(200);
      ExtractableResponse<Response> missing =
          as(WRITER)
              .queryParam("repo", repo)
              .queryParam("key", key.replace(".md", "-gone.md"))
              .delete(PATH)
              .then()
              .statusCode(404)
              .extract();

      assertThat(missing.asString()).doesNotContain(GITHUB_TOKEN);
      assertThat(log.lines())
          .anyMatch(
              line ->
                  line.startsWith(
                      "DELETE "
                          + repo
                          + " a key that holds a secret (rule github-pat, fingerprint"))
          .noneMatch(line -> line.contains("notes/"))
          .noneMatch(line -> line.contains(GITHUB_TOKEN.substring(4)));
    }
    assertThat(hashes(repo).jsonPath().getMap("entryChecksums")).containsOnlyKeys("a.md");
  }

  @Test
  void aMemoryPathHoldingASecretIsRefusedOnCreateAndOnRename() {
    String store = storeOf(fresh("secret-path"));
    String memories = memories(store);

    assertRefused(
        v1(WRITER)
            .body(Map.of("path", "/testing/" + AWS_KEY_ID + ".md", "content", "harmless"))
            .post(memories),
        "memory path");
    String id =
        v1(WRITER)
            .body(Map.of("path", "/r.md", "content", "x"))
            .post(memories)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getString("id");
    assertRefused(
        v1(WRITER).body(Map.of("path", "/testing/" + AWS_KEY_ID + ".md")).post(memories + "/" + id),
        "memory path");

    JsonPath listed = v1(WRITER).get(memories).then().statusCode(200).extract().jsonPath();
    assertThat(listed.getList("data.path", String.class)).containsExactly("/r.md");
  }

  @Test
  void aStoresNameDescriptionAndMetadataAreScannedWhenCreatedAndUpdated() {
    String repo = fresh("secret-store");
    assertRefused(
        v1(WRITER)
            .body(Map.of("name", "ci " + GITHUB_TOKEN, "metadata", Map.of("repo", repo)))
            .post(STORES),
        "memory store name");
    assertRefused(
        v1(WRITER)
            .body(
                Map.of(
                    "name",
                    repo,
                    "description",
                    "token " + GITHUB_TOKEN,
                    "metadata",
                    Map.of("repo", repo)))
            .post(STORES),
        "memory store description");
    assertRefused(
        v1(WRITER)
            .body(Map.of("name", repo, "metadata", Map.of("repo", repo, "ci", GITHUB_TOKEN)))
            .post(STORES),
        "memory store metadata");
    assertRefused(
        v1(WRITER)
            .body(Map.of("name", repo, "metadata", Map.of("repo", repo, GITHUB_TOKEN, "x")))
            .post(STORES),
        "memory store metadata");

    String store = storeOf(repo);
    assertRefused(
        v1(WRITER).body(Map.of("description", "token " + GITHUB_TOKEN)).post(STORES + "/" + store),
        "memory store description");
    assertRefused(
        v1(WRITER).body(Map.of("metadata", Map.of("ci", GITHUB_TOKEN))).post(STORES + "/" + store),
        "memory store metadata");

    JsonPath kept =
        v1(WRITER).get(STORES + "/" + store).then().statusCode(200).extract().jsonPath();
    assertThat(kept.getString("description")).isEmpty();
    assertThat(kept.getMap("metadata")).containsOnlyKeys("repo");
  }

  private static void refusedPut(String repo, String content, String ruleId) {
    ExtractableResponse<Response> refused =
        as(WRITER)
            .queryParam("repo", repo)
            .body(entries("notes.md", content))
            .put(PATH)
            .then()
            .statusCode(422)
            .extract();
    assertThat(refused.jsonPath().getList("error.details.findings.ruleId")).contains(ruleId);
    assertThat(refused.asString()).doesNotContain(GITHUB_TOKEN).doesNotContain(AWS_SECRET);
  }

  private static void assertRefused(Response response, String field) {
    ExtractableResponse<Response> refused = response.then().statusCode(400).extract();
    assertThat(refused.jsonPath().getString("error.type")).isEqualTo("invalid_request_error");
    assertThat(refused.jsonPath().getString("error.message"))
        .isEqualTo(
            field
                + " appears to contain a credential or API key; remove it before writing. If the"
                + " credential is real, rotate it.");
    assertThat(refused.asString()).doesNotContain(GITHUB_TOKEN).doesNotContain(AWS_KEY_ID);
  }
}
