package dev.teammemory.server.review;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.TestRepositories.storeIdOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Changes made while a repository requires review, through the real HTTP APIs: what waits and who
 * sees the list, a reviewer's approval (a new version that wakes the change feed) and rejection
 * (the approved version restored, or a never-approved memory removed), and the audit of each.
 */
@QuarkusTest
class ReviewQueueTest {

  /** rita: the review level on every repository. */
  private static final String REVIEWER = "review-token";

  /** olga: the admin level on every repository. */
  private static final String ADMIN = "owner-token";

  private static void requireReview(String repo) {
    as(ADMIN)
        .queryParam("repo", repo)
        .body(Map.of("review", "required"))
        .put(PATH + "/settings")
        .then()
        .statusCode(200);
  }

  private static ExtractableResponse<Response> reviews(String token, String repo, String status) {
    return as(token)
        .queryParam("repo", repo)
        .queryParam("status", status)
        .get(PATH + "/reviews")
        .then()
        .extract();
  }

  private static ExtractableResponse<Response> decide(
      String token, String repo, String id, String decision, String comment) {
    return as(token)
        .queryParam("repo", repo)
        .body(Map.of("decision", decision, "comment", comment))
        .post(PATH + "/reviews/" + id)
        .then()
        .extract();
  }

  private static String content(String repo, String key) {
    return as(READER)
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("content.entries.'" + key + "'");
  }

  @Test
  void aTeammatesWriteWaitsAndTheListIsTheAuthorsAndTheReviewersOnly() {
    String repo = fresh("review-queue");
    put(repo, entries("a.md", "approved"));
    requireReview(repo);

    long version =
        put(repo, entries("a.md", "waiting", "b.md", "new")).jsonPath().getLong("version");
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "b.md")
        .delete(PATH)
        .then()
        .statusCode(200);
    put(repo, entries("c.md", "by the reviewer")); // alice again, so waits
    as(REVIEWER)
        .queryParam("repo", repo)
        .body(entries("d.md", "a reviewer's own"))
        .put(PATH)
        .then()
        .statusCode(200);

    ExtractableResponse<Response> forReviewer = reviews(REVIEWER, repo, "pending");
    assertThat(forReviewer.statusCode()).isEqualTo(200);
    assertThat(forReviewer.jsonPath().getList("data.key"))
        .containsExactly("a.md", "b.md", "b.md", "c.md");
    assertThat(forReviewer.jsonPath().getList("data.operation"))
        .containsExactly("content", "content", "delete", "content");
    assertThat(forReviewer.jsonPath().getList("data.author")).containsOnly("alice");
    assertThat(forReviewer.jsonPath().getLong("data[0].version")).isEqualTo(version);
    assertThat(forReviewer.jsonPath().getString("data[0].id")).matches("rev_[0-9a-f]{32}");
    assertThat(forReviewer.jsonPath().getString("data[0].status")).isEqualTo("pending");
    assertThat(reviews(WRITER, repo, "pending").jsonPath().getList("data.key")).hasSize(4);
    assertThat(reviews(READER, repo, "pending").jsonPath().getList("data")).isEmpty();
    assertThat(reviews(READER, repo, "maybe").statusCode()).isEqualTo(400);
  }

  @Test
  void aMemoryStoresApiWriteWaitsLikeATeamMemoryOne() {
    String repo = fresh("review-store-api");
    put(repo, entries("a.md", "approved"));
    requireReview(repo);
    String store = storeIdOf(repo);

    as(WRITER)
        .body(Map.of("path", "/notes/b.md", "content", "from an agent"))
        .post("/v1/memory_stores/" + store + "/memories")
        .then()
        .statusCode(200);

    ExtractableResponse<Response> pending = reviews(REVIEWER, repo, "pending");
    assertThat(pending.jsonPath().getList("data.key")).containsExactly("notes/b.md");
    assertThat(pending.jsonPath().getString("data[0].author")).isEqualTo("alice");
  }

  @Test
  void withReviewOffNothingWaits() {
    String repo = fresh("review-off");

    put(repo, entries("a.md", "one"));

    assertThat(reviews(REVIEWER, repo, "pending").jsonPath().getList("data")).isEmpty();
  }

  @Test
  void anApprovalStampsANewVersionAndIsAuditedAndCannotBeDecidedTwice() {
    String repo = fresh("review-approve");
    put(repo, entries("a.md", "approved"));
    requireReview(repo);
    long written = put(repo, entries("a.md", "waiting")).jsonPath().getLong("version");
    String id = reviews(REVIEWER, repo, "pending").jsonPath().getString("data[0].id");

    ExtractableResponse<Response> approved = decide(REVIEWER, repo, id, "approve", "fine");

    assertThat(approved.statusCode()).isEqualTo(200);
    assertThat(approved.jsonPath().getString("status")).isEqualTo("approved");
    assertThat(approved.jsonPath().getString("reviewer")).isEqualTo("rita");
    assertThat(approved.jsonPath().getString("comment")).isEqualTo("fine");
    // The approval is a new version of the key, so an after_version feed names it.
    ExtractableResponse<Response> feed =
        as(READER)
            .queryParam("repo", repo)
            .queryParam("after_version", written)
            .queryParam("wait", 0)
            .get(PATH + "/changes")
            .then()
            .statusCode(200)
            .extract();
    assertThat(feed.jsonPath().getLong("version")).isEqualTo(written + 1);
    assertThat(feed.jsonPath().getMap("changed")).containsOnlyKeys("a.md");
    assertThat(content(repo, "a.md")).isEqualTo("waiting");
    assertThat(reviews(REVIEWER, repo, "pending").jsonPath().getList("data")).isEmpty();
    assertThat(reviews(WRITER, repo, "approved").jsonPath().getList("data.id")).containsExactly(id);
    ExtractableResponse<Response> again = decide(REVIEWER, repo, id, "reject", "");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.jsonPath().getString("error.details.error_code")).isEqualTo("already_decided");
    assertThat(
            as(REVIEWER)
                .queryParam("repo", repo)
                .get(PATH + "/audit")
                .then()
                .extract()
                .jsonPath()
                .getList("data.action"))
        .containsExactly("approved", "review_on");
  }

  @Test
  void aRejectionRestoresTheApprovedVersionOrRemovesANeverApprovedMemory() {
    String repo = fresh("review-reject");
    put(repo, entries("a.md", "approved"));
    requireReview(repo);
    put(repo, entries("a.md", "unwanted", "new.md", "never approved"));
    ExtractableResponse<Response> pending = reviews(REVIEWER, repo, "pending");
    String edit = pending.jsonPath().getString("data.find { it.key == 'a.md' }.id");
    String created = pending.jsonPath().getString("data.find { it.key == 'new.md' }.id");

    assertThat(decide(REVIEWER, repo, edit, "reject", "not this").statusCode()).isEqualTo(200);
    assertThat(decide(REVIEWER, repo, created, "reject", "no").statusCode()).isEqualTo(200);

    assertThat(content(repo, "a.md")).isEqualTo("approved");
    assertThat(content(repo, "new.md")).isNull();
    ExtractableResponse<Response> rejected = reviews(WRITER, repo, "rejected");
    assertThat(rejected.jsonPath().getList("data.comment")).containsExactly("not this", "no");
    assertThat(reviews(REVIEWER, repo, "pending").jsonPath().getList("data")).isEmpty();
    assertThat(
            as(REVIEWER)
                .queryParam("repo", repo)
                .get(PATH + "/audit")
                .then()
                .extract()
                .jsonPath()
                .getList("data.action"))
        .containsExactly("restored", "rejected", "restored", "rejected", "review_on");
  }

  @Test
  void onlyReviewersDecideAndABadDecisionIs400() {
    String repo = fresh("review-decide-who");
    put(repo, entries("a.md", "approved"));
    requireReview(repo);
    put(repo, entries("a.md", "waiting"));
    String id = reviews(WRITER, repo, "pending").jsonPath().getString("data[0].id");

    assertThat(decide(WRITER, repo, id, "approve", "mine").statusCode()).isEqualTo(403);
    assertThat(decide(REVIEWER, repo, id, "maybe", "").statusCode()).isEqualTo(400);
    assertThat(decide(REVIEWER, repo, "rev_unknown", "approve", "").statusCode()).isEqualTo(404);
    assertThat(reviews(REVIEWER, repo, "pending").jsonPath().getList("data.id"))
        .containsExactly(id);
  }

  @Test
  void switchingReviewOffPublishesWhatWaitsAndAuditsIt() {
    String repo = fresh("review-publish");
    put(repo, entries("a.md", "approved"));
    requireReview(repo);
    put(repo, entries("a.md", "waiting"));

    as(ADMIN)
        .queryParam("repo", repo)
        .body(Map.of("review", "off"))
        .put(PATH + "/settings")
        .then()
        .statusCode(200);

    assertThat(reviews(REVIEWER, repo, "pending").jsonPath().getList("data")).isEmpty();
    assertThat(reviews(REVIEWER, repo, "approved").jsonPath().getString("data[0].reviewer"))
        .isEqualTo("olga");
    ExtractableResponse<Response> audit =
        as(REVIEWER).queryParam("repo", repo).get(PATH + "/audit").then().extract();
    assertThat(audit.jsonPath().getList("data.action"))
        .containsExactly("published", "review_off", "review_on");
    assertThat(audit.jsonPath().getString("data[0].detail"))
        .isEqualTo("1 waiting changes published when review was switched off");
  }
}
