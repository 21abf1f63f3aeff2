package dev.teammemory.server.review;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.github.FakeGitHubResource.gitHub;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The review setting and the audit through their HTTP endpoints: who may read and change the
 * setting (static tokens' review and admin levels, GitHub's maintain and admin permissions), the
 * bodies refused, and the audit of each switch.
 */
@QuarkusTest
class ReviewSettingsTest {

  /** rita: the review level on every repository. */
  private static final String REVIEWER = "review-token";

  /** olga: the admin level on every repository. */
  private static final String ADMIN = "owner-token";

  private static final AtomicLong NEXT_USER_ID = new AtomicLong(8_000_000);

  private static ExtractableResponse<Response> settings(String token, String repo) {
    return as(token).queryParam("repo", repo).get(PATH + "/settings").then().extract();
  }

  private static ExtractableResponse<Response> setReview(String token, String repo, Object body) {
    return as(token).queryParam("repo", repo).body(body).put(PATH + "/settings").then().extract();
  }

  private static ExtractableResponse<Response> audit(String token, String repo) {
    return as(token).queryParam("repo", repo).get(PATH + "/audit").then().extract();
  }

  @Test
  void reviewIsOffUntilAnAdminRequiresItAndEveryReaderSeesTheSetting() {
    String repo = fresh("review-setting");
    put(repo, entries("a.md", "one"));

    assertThat(settings(READER, repo).asString()).isEqualTo("{\"review\":\"off\"}");

    ExtractableResponse<Response> set = setReview(ADMIN, repo, Map.of("review", "required"));

    assertThat(set.statusCode()).isEqualTo(200);
    assertThat(set.asString()).isEqualTo("{\"review\":\"required\"}");
    assertThat(settings(READER, repo).asString()).isEqualTo("{\"review\":\"required\"}");
    assertThat(settings(WRITER, repo).jsonPath().getString("review")).isEqualTo("required");
  }

  @Test
  void onlyAdminsChangeTheSettingAndARefusalChangesNothing() {
    String repo = fresh("review-who");

    for (String token : List.of(READER, WRITER, REVIEWER)) {
      ExtractableResponse<Response> refused = setReview(token, repo, Map.of("review", "required"));
      assertThat(refused.statusCode()).as(token).isEqualTo(403);
      assertThat(refused.jsonPath().getString("error.details.error_code")).isEqualTo("forbidden");
      assertThat(refused.jsonPath().getString("error.message"))
          .endsWith(
              "changing a repository's settings needs the admin level (GitHub's admin"
                  + " permission)");
    }
    assertThat(settings(READER, repo).jsonPath().getString("review")).isEqualTo("off");
    assertThat(settings("no-such-token", repo).statusCode()).isEqualTo(401);
  }

  @Test
  void aBadBodyIs400InTheEnvelopeAndChangesNothing() {
    String repo = fresh("review-body");

    List<Object> bad =
        List.of(
            Map.of("review", "sometimes"),
            Map.of("review", true),
            Map.of(),
            Map.of("review", "required", "extra", "x"),
            List.of("required"));
    for (Object body : bad) {
      ExtractableResponse<Response> refused = setReview(ADMIN, repo, body);
      assertThat(refused.statusCode()).as(body.toString()).isEqualTo(400);
      assertThat(refused.jsonPath().getString("error.details.error_code"))
          .isEqualTo("invalid_body");
    }
    ExtractableResponse<Response> notJson = setReview(ADMIN, repo, "{\"review\":");
    assertThat(notJson.statusCode()).isEqualTo(400);
    assertThat(notJson.jsonPath().getString("error.details.error_code")).isEqualTo("invalid_json");
    assertThat(settings(READER, repo).jsonPath().getString("review")).isEqualTo("off");
    assertThat(audit(REVIEWER, repo).jsonPath().getList("data")).isEmpty();
  }

  @Test
  void everySwitchIsAuditedNewestFirstAndTheAuditIsForReviewersOnly() {
    String repo = fresh("review-audit");
    put(repo, entries("a.md", "one", "b.md", "two"));

    setReview(ADMIN, repo, Map.of("review", "required"));
    setReview(ADMIN, repo, Map.of("review", "required")); // no change: not audited
    setReview(ADMIN, repo, Map.of("review", "off"));

    ExtractableResponse<Response> page = audit(REVIEWER, repo);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.jsonPath().getList("data.action")).containsExactly("review_off", "review_on");
    assertThat(page.jsonPath().getList("data.actor")).containsExactly("olga", "olga");
    assertThat(page.jsonPath().getString("data[1].detail"))
        .isEqualTo("2 existing memories counted as approved");
    assertThat(page.jsonPath().getString("data[0].created_at")).endsWith("Z");
    assertThat(page.jsonPath().getString("next_page")).isNull();
    ExtractableResponse<Response> teammate = audit(WRITER, repo);
    assertThat(teammate.statusCode()).isEqualTo(403);
    assertThat(teammate.jsonPath().getString("error.message"))
        .endsWith(
            "reviewing changes needs the review level (GitHub's maintain or admin"
                + " permission)");
    assertThat(audit(REVIEWER, repo).jsonPath().getString("data[0].action"))
        .isEqualTo("review_off");
  }

  @Test
  void gitHubMaintainersReviewAndGitHubAdminsAlsoChangeTheSetting() {
    String repo = fresh("review-github");
    long id = NEXT_USER_ID.incrementAndGet();
    String maintainer = "gho_maintainer" + id + "Zq7";
    String owner = "gho_owner" + id + "Zq7";
    gitHub().addUser(maintainer, "maintainer-" + id, id);
    gitHub().addUser(owner, "owner-" + id, id + 1);
    gitHub().grant("maintainer-" + id, repo, "maintain");
    gitHub().grant("owner-" + id, repo, "admin");

    assertThat(setReview(maintainer, repo, Map.of("review", "required")).statusCode())
        .isEqualTo(403);
    assertThat(audit(maintainer, repo).statusCode()).isEqualTo(200);
    assertThat(setReview(owner, repo, Map.of("review", "required")).statusCode()).isEqualTo(200);
    assertThat(audit(maintainer, repo).jsonPath().getList("data.actor"))
        .containsExactly("owner-" + id);
  }
}
