package dev.teammemory.server.admin;

import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.teammemory.server.LegacyRows;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The admin report lists the stored entries today's rules would refuse, walking every entry a page
 * at a time, for admins only, and never shows a match.
 */
@QuarkusTest
class SecretReportTest {

  private static final String ADMIN = "admin-token";
  private static final String REPORT = "/admin/secret-report";

  /** Tokens of their rules' formats, built here so that no scanner flags this file. */
  private static final String GITHUB_TOKEN = "ghp_" + "Qm4Rt8Yp2Wx6Zn1Kc5Vb9Hj3Lg7Df0Sa2Ue6";

  private static final String AWS_SECRET = "pL3kQ9vT2mX8sR5nB7wE1yH4jF6dC0gA9zU2iO7e";

  @Inject DataSource database;

  @Test
  void anAdminWalksEveryPageAndFindsEachStoredSecretByRepositoryKeyFieldRuleAndLine()
      throws SQLException {
    String repo = fresh("report");
    put(repo, entries("clean.md", "nothing here\n"));
    LegacyRows.storeEntry(database, repo, "notes/" + GITHUB_TOKEN + ".md", "harmless\n");
    LegacyRows.storeEntry(
        database, repo, "aws.md", "# AWS\n\naws_secret_access_key = " + AWS_SECRET + "\n");
    LegacyRows.storeEntry(
        database, repo, "allowed.md", "ci: " + GITHUB_TOKEN + " # gitleaks:allow\n");

    List<Map<String, Object>> findings = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    // Other tests' entries before this repository's are not this test's business.
    String page = LegacyRows.positionBefore(database, repo);
    int pages = 0;
    do {
      var request = as(ADMIN);
      if (page != null) {
        request.queryParam("page", page);
      }
      String body = request.get(REPORT).then().statusCode(200).extract().asString();
      JsonPath answer = JsonPath.from(body);
      assertThat(answer.getInt("scanned_entries")).isBetween(0, SecretReport.PAGE_ENTRIES);
      findings.addAll(answer.getList("findings"));
      bodies.add(body);
      page = answer.getString("next_page");
      pages++;
    } while (page != null && pages < 1_000);

    assertThat(page).as("the report ends").isNull();
    assertThat(findings.stream().filter(finding -> repo.equals(finding.get("repo"))))
        .containsExactlyInAnyOrder(
            Map.of(
                "repo",
                repo,
                "key",
                "notes/[REDACTED].md",
                "field",
                "key",
                "rule",
                "github-pat",
                "line",
                1),
            Map.of(
                "repo",
                repo,
                "key",
                "aws.md",
                "field",
                "content",
                "rule",
                "aws-secret-access-key",
                "line",
                3),
            Map.of(
                "repo",
                repo,
                "key",
                "allowed.md",
                "field",
                "content",
                "rule",
                "github-pat",
                "line",
                1));
    assertThat(String.join("\n", bodies))
        .doesNotContain(GITHUB_TOKEN.substring(4))
        .doesNotContain(AWS_SECRET);
  }

  @Test
  void aPageIsBoundedAndNextPageLeadsOnWithoutRepeatingAnEntry() throws SQLException {
    String repo = fresh("report-pages");
    put(repo, entries("first.md", "one\n"));
    for (int i = 0; i < 3; i++) {
      LegacyRows.storeEntry(database, repo, "secret-" + i + ".md", "t: " + GITHUB_TOKEN + "\n");
    }

    JsonPath first = as(ADMIN).get(REPORT).then().statusCode(200).extract().jsonPath();
    List<String> keys = new ArrayList<>();
    String page = LegacyRows.positionBefore(database, repo);
    do {
      var request = as(ADMIN);
      if (page != null) {
        request.queryParam("page", page);
      }
      JsonPath answer = request.get(REPORT).then().statusCode(200).extract().jsonPath();
      for (Map<String, Object> finding : answer.<Map<String, Object>>getList("findings")) {
        if (repo.equals(finding.get("repo"))) {
          keys.add((String) finding.get("key"));
        }
      }
      page = answer.getString("next_page");
    } while (page != null);

    assertThat(first.getInt("scanned_entries")).isPositive();
    assertThat(keys).containsExactly("secret-0.md", "secret-1.md", "secret-2.md");
  }

  @Test
  void onlyAnAdminMayReadTheReport() {
    for (String stranger : new String[] {WRITER, READER}) {
      as(stranger)
          .get(REPORT)
          .then()
          .statusCode(403)
          .body("error.details.error_code", equalTo("forbidden"))
          .body("error.message", containsString("is not an admin of this server"));
    }
    as(ADMIN)
        .queryParam("page", "not-a-position")
        .get(REPORT)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_parameter"));
    io.restassured.RestAssured.given().get(REPORT).then().statusCode(401);
  }
}
