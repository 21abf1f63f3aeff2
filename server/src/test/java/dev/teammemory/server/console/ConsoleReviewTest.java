package dev.teammemory.server.console;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.console.ConsoleTest.page;
import static dev.teammemory.server.console.ConsoleTest.post;
import static dev.teammemory.server.console.ConsoleTest.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.server.console.ConsoleTest.Browser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console's review pages over HTTP: the queue, one change with its diff, approve and reject
 * with a comment, the setting (a form for admins only), the audit, and who may see and do what.
 */
@QuarkusTest
class ConsoleReviewTest {

  /** rita: the review level on every repository. */
  private static final String REVIEWER = "review-token";

  /** olga: the admin level on every repository. */
  private static final String ADMIN = "owner-token";

  private static final Pattern CHANGE_LINK =
      Pattern.compile("href=\"(/console/repos/[^\"]+/review/(rev_[^\"]+))\"");

  /** An admin requires review through the console's form. */
  private static void requireReview(String repo) {
    Browser admin = signIn(ADMIN);
    Response switched =
        post(
            admin,
            "/console/repos/" + repo + "/settings",
            Map.of("csrf", admin.csrf(), "review", "required"));
    assertThat(switched.statusCode()).isEqualTo(303);
    assertThat(page(admin, "/console/repos/" + repo + "/review").asString())
        .contains("Review is <strong>required</strong>")
        .contains("Switch review off");
  }

  private static JsonPath reviews(String token, String repo, String status) {
    return as(token)
        .queryParam("repo", repo)
        .queryParam("status", status)
        .get(PATH + "/reviews")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath();
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

  /** The first change the queue page links to: its page and its id. */
  private static List<String> firstChange(String queueHtml) {
    Matcher matcher = CHANGE_LINK.matcher(queueHtml);
    assertThat(matcher.find()).as("a change linked from %s", queueHtml).isTrue();
    return List.of(matcher.group(1), matcher.group(2));
  }

  @Test
  void aReviewerSeesTheWaitingChangeWithItsDiffAndApprovesItWithAComment() {
    String repo = fresh("console-review");
    put(repo, entries("notes/a.md", "kept line\nold line\n"));
    requireReview(repo);
    put(repo, entries("notes/a.md", "kept line\nnew <b>line</b>\n"));

    assertThat(page(signIn(WRITER), "/console/repos/" + repo).asString())
        .contains("href=\"/console/repos/" + repo + "/review\"");
    Browser reviewer = signIn(REVIEWER);
    String queue = page(reviewer, "/console/repos/" + repo + "/review").asString();
    assertThat(queue).contains("notes/a.md").contains("alice").contains("Audit");
    List<String> change = firstChange(queue);

    String changePage = page(reviewer, change.get(0)).asString();
    assertThat(changePage)
        .contains("Compared with the approved version 1.")
        .contains("<tr class=\"removed\"><td>2</td><td></td><td>-</td><td><pre>old line</pre>")
        .contains("<tr class=\"added\"><td></td><td>2</td><td>+</td><td><pre>new &lt;b&gt;line")
        .contains("<tr class=\"same\"><td>1</td><td>1</td>")
        .contains("value=\"approve\"")
        .contains("value=\"reject\"");

    Response approved =
        post(
            reviewer,
            change.get(0),
            Map.of("csrf", reviewer.csrf(), "decision", "approve", "comment", "Fine, thanks <3"));
    assertThat(approved.statusCode()).isEqualTo(303);
    assertThat(approved.getHeader("Location")).endsWith(change.get(0));
    assertThat(page(reviewer, change.get(0)).asString())
        .contains("<strong>Approved</strong> by rita")
        .contains("Fine, thanks &lt;3")
        .doesNotContain("value=\"approve\"");
    assertThat(reviews(WRITER, repo, "approved").getList("data.id")).containsExactly(change.get(1));
    assertThat(reviews(WRITER, repo, "approved").getString("data[0].comment"))
        .isEqualTo("Fine, thanks <3");
    assertThat(page(reviewer, "/console/repos/" + repo + "/audit").asString())
        .contains(">approved</a>")
        .contains("rita")
        .contains("review_on");

    Response again =
        post(reviewer, change.get(0), Map.of("csrf", reviewer.csrf(), "decision", "reject"));
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.asString()).contains("this change was already approved");
  }

  @Test
  void aRejectionRestoresTheApprovedVersionAndTheAuthorReadsTheComment() {
    String repo = fresh("console-reject");
    put(repo, entries("a.md", "approved"));
    requireReview(repo);
    put(repo, entries("a.md", "unwanted", "new.md", "never approved"));
    Browser reviewer = signIn(REVIEWER);
    String queue = page(reviewer, "/console/repos/" + repo + "/review").asString();
    Matcher changes = CHANGE_LINK.matcher(queue);
    while (changes.find()) {
      String changePage = page(reviewer, changes.group(1)).asString();
      if (changePage.contains("Change to new.md")) {
        assertThat(changePage)
            .contains("Nothing approved yet")
            .contains("<td>+</td><td><pre>never approved</pre>");
      }
      Response rejected =
          post(
              reviewer,
              changes.group(1),
              Map.of(
                  "csrf", reviewer.csrf(), "decision", "reject", "comment", "Not team knowledge"));
      assertThat(rejected.statusCode()).isEqualTo(303);
    }
    assertThat(content(repo, "a.md")).isEqualTo("approved");
    assertThat(content(repo, "new.md")).isNull();

    Browser author = signIn(WRITER);
    String rejectedPage =
        page(author, "/console/repos/" + repo + "/review?status=rejected").asString();
    assertThat(rejectedPage).contains("Not team knowledge").contains("rita").contains("a.md");
    List<String> change = firstChange(rejectedPage);
    assertThat(page(author, change.get(0)).asString())
        .contains("<strong>Rejected</strong> by rita")
        .doesNotContain("value=\"approve\"");
  }

  @Test
  void aReaderSeesTheSettingReadOnlyOnlyTheirOwnChangesAndNoDecisionForms() {
    String repo = fresh("console-review-reader");
    put(repo, entries("a.md", "one"));
    requireReview(repo);
    put(repo, entries("a.md", "alice's change"));
    String changeHref =
        firstChange(page(signIn(REVIEWER), "/console/repos/" + repo + "/review").asString()).get(0);

    Browser reader = signIn(READER);
    String queue = page(reader, "/console/repos/" + repo + "/review").asString();
    assertThat(queue)
        .contains("Review is <strong>required</strong>")
        .contains("Only the repository's admins change this setting.")
        .doesNotContain("Switch review off")
        .doesNotContain("/review/rev_")
        .doesNotContain(">Audit<")
        .contains("You see your own changes only.");
    assertThat(page(reader, changeHref).statusCode()).isEqualTo(404);
    assertThat(page(reader, "/console/repos/" + repo + "/audit").statusCode()).isEqualTo(403);
    assertThat(
            post(reader, changeHref, Map.of("csrf", reader.csrf(), "decision", "approve"))
                .statusCode())
        .isEqualTo(403);
    assertThat(
            post(
                    reader,
                    "/console/repos/" + repo + "/settings",
                    Map.of("csrf", reader.csrf(), "review", "off"))
                .statusCode())
        .isEqualTo(403);

    Browser author = signIn(WRITER);
    String own = page(author, changeHref).asString();
    assertThat(own).contains("<strong>Waiting</strong>").doesNotContain("value=\"approve\"");
    assertThat(
            post(author, changeHref, Map.of("csrf", author.csrf(), "decision", "approve"))
                .statusCode())
        .as("the author is not a reviewer")
        .isEqualTo(403);
    assertThat(reviews(REVIEWER, repo, "pending").getList("data")).hasSize(1);
  }

  @Test
  void everyPageShowsEachCallerTheirViewOfARepositoryUnderReview() {
    String repo = fresh("console-review-views");
    put(repo, entries("a.md", "approved words", "MEMORY.md", "# Index\n"));
    requireReview(repo);
    put(repo, entries("a.md", "waiting words", "new.md", "never approved"));
    String base = "/console/repos/" + repo;

    Browser reader = signIn(READER);
    assertThat(page(reader, base).asString()).contains("/memories/a.md").doesNotContain("new.md");
    assertThat(page(reader, base + "/memories/a.md").asString())
        .contains("approved words")
        .doesNotContain("waiting words");
    assertThat(page(reader, base + "/memories/new.md").statusCode()).isEqualTo(404);
    assertThat(page(reader, base + "?q=approved").asString()).contains(base + "/memories/a.md");
    assertThat(page(reader, base + "?q=waiting").asString())
        .doesNotContain(base + "/memories/a.md");
    assertThat(page(reader, base + "/activity").asString())
        .contains("/memories/a.md")
        .doesNotContain("new.md");
    String history = page(reader, base + "/memories/a.md/history").asString();
    assertThat(history).contains("alice");
    long waitingVersion =
        as(REVIEWER)
            .queryParam("repo", repo)
            .get(PATH + "/reviews")
            .then()
            .extract()
            .jsonPath()
            .getLong("data.find { it.key == 'a.md' }.version");
    assertThat(
            page(reader, base + "/memories/a.md/history?from=1&to=" + waitingVersion).statusCode())
        .as("a waiting version is not the reader's to diff")
        .isEqualTo(404);

    Browser author = signIn(WRITER);
    assertThat(page(author, base + "/memories/a.md").asString()).contains("waiting words");
    assertThat(page(author, base).asString()).contains("/memories/new.md");
    Browser reviewer = signIn(REVIEWER);
    assertThat(page(reviewer, base + "?q=waiting").asString()).contains(base + "/memories/a.md");
  }

  @Test
  void aDecisionWithoutItsCsrfTokenOrWithASecretOrTooLongACommentDecidesNothing() {
    String repo = fresh("console-review-refused");
    put(repo, entries("a.md", "one"));
    requireReview(repo);
    put(repo, entries("a.md", "two"));
    Browser reviewer = signIn(REVIEWER);
    String changeHref =
        firstChange(page(reviewer, "/console/repos/" + repo + "/review").asString()).get(0);

    Response forged = post(reviewer, changeHref, Map.of("decision", "approve"));
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(forged.asString()).contains("CSRF token is missing or wrong");

    String secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    Response leaked =
        post(
            reviewer,
            changeHref,
            Map.of("csrf", reviewer.csrf(), "decision", "reject", "comment", "use " + secret));
    assertThat(leaked.statusCode()).isEqualTo(422);
    assertThat(leaked.asString())
        .contains("Not decided: the comment holds a secret (rule")
        .doesNotContain("A1b2C3d4");

    Response tooLong =
        post(
            reviewer,
            changeHref,
            Map.of("csrf", reviewer.csrf(), "decision", "approve", "comment", "x".repeat(2001)));
    assertThat(tooLong.statusCode()).isEqualTo(422);
    assertThat(tooLong.asString()).contains("longer than 2000 characters");

    assertThat(reviews(REVIEWER, repo, "pending").getList("data")).hasSize(1);
    assertThat(
            as(REVIEWER)
                .queryParam("repo", repo)
                .body(Map.of("decision", "approve", "comment", "see " + secret))
                .post(
                    PATH
                        + "/reviews/"
                        + firstChange(
                                page(reviewer, "/console/repos/" + repo + "/review").asString())
                            .get(1))
                .then()
                .extract()
                .statusCode())
        .as("the review endpoint scans comments too")
        .isEqualTo(422);
  }

  @Test
  void anAdminSwitchesReviewOffAndTheWaitingChangeIsPublished() {
    String repo = fresh("console-review-off");
    put(repo, entries("a.md", "one"));
    requireReview(repo);
    put(repo, entries("a.md", "two"));
    Browser admin = signIn(ADMIN);
    Response off =
        post(
            admin,
            "/console/repos/" + repo + "/settings",
            Map.of("csrf", admin.csrf(), "review", "off"));
    assertThat(off.statusCode()).isEqualTo(303);
    assertThat(page(admin, "/console/repos/" + repo + "/review").asString())
        .contains("Review is <strong>off</strong>")
        .contains("No change waits for review.");
    assertThat(page(admin, "/console/repos/" + repo + "/audit").asString())
        .contains("published")
        .contains("review_off");
    assertThat(reviews(ADMIN, repo, "approved").getList("data")).hasSize(1);
  }

  @Test
  void aCallerOfAnotherOrganisationGets404ForTheReviewPages() {
    String repo = fresh("console-review-other");
    put(repo, entries("a.md", "one"));
    Browser acme = signIn("acme-token");
    for (String path : List.of("/review", "/review?status=rejected", "/review/rev_x", "/audit")) {
      assertThat(page(acme, "/console/repos/" + repo + path).statusCode()).as(path).isEqualTo(404);
    }
    assertThat(
            post(
                    acme,
                    "/console/repos/" + repo + "/settings",
                    Map.of("csrf", acme.csrf(), "review", "required"))
                .statusCode())
        .isEqualTo(404);
  }
}
