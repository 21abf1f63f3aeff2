package dev.teammemory.server.review;

import static dev.teammemory.server.TestRepositories.ACME_WRITER;
import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.storeIdOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ETags;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What each caller reads of a repository that requires review, through both APIs and the change
 * feed: the author (alice) reads her own waiting changes over the approved state, a teammate
 * (carol) and a reader (bob) read the approved state, a reviewer (rita) reads the newest. ETags,
 * {@code If-None-Match}, {@code If-Match} and the change feed's checksums are each caller's view's.
 */
@QuarkusTest
class ReviewViewsTest {

  /** carol: write access to acme/* only, so the repositories here are acme's. */
  private static final String TEAMMATE = ACME_WRITER;

  /** rita: the review level on every repository. */
  private static final String REVIEWER = "review-token";

  /** olga: the admin level on every repository. */
  private static final String ADMIN = "owner-token";

  private static final String STORES = "/v1/memory_stores/";

  private static String freshAcme(String prefix) {
    return "acme/" + prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static void requireReview(String repo) {
    as(ADMIN)
        .queryParam("repo", repo)
        .body(Map.of("review", "required"))
        .put(PATH + "/settings")
        .then()
        .statusCode(200);
  }

  /** A PUT that must land. */
  private static ExtractableResponse<Response> put(String token, String repo, Object body) {
    return as(token).queryParam("repo", repo).body(body).put(PATH).then().statusCode(200).extract();
  }

  private static ExtractableResponse<Response> get(String token, String repo) {
    return as(token).queryParam("repo", repo).get(PATH).then().statusCode(200).extract();
  }

  private static ExtractableResponse<Response> hashes(String token, String repo) {
    return as(token)
        .queryParam("repo", repo)
        .queryParam("view", "hashes")
        .get(PATH)
        .then()
        .statusCode(200)
        .extract();
  }

  private static ExtractableResponse<Response> after(String token, String repo, long version) {
    return as(token)
        .queryParam("repo", repo)
        .queryParam("after_version", version)
        .queryParam("wait", 0)
        .get(PATH + "/changes")
        .then()
        .extract();
  }

  private static ExtractableResponse<Response> since(String token, String repo, String checksum) {
    return as(token)
        .queryParam("repo", repo)
        .queryParam("since", checksum)
        .queryParam("wait", 0)
        .get(PATH + "/changes")
        .then()
        .extract();
  }

  private static void delete(String token, String repo, String key) {
    as(token).queryParam("repo", repo).queryParam("key", key).delete(PATH).then().statusCode(200);
  }

  private static String pendingId(String repo, String key) {
    return as(REVIEWER)
        .queryParam("repo", repo)
        .get(PATH + "/reviews")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("data.find { it.key == '" + key + "' }.id");
  }

  private static void decide(String repo, String key, String decision) {
    as(REVIEWER)
        .queryParam("repo", repo)
        .body(Map.of("decision", decision))
        .post(PATH + "/reviews/" + pendingId(repo, key))
        .then()
        .statusCode(200);
  }

  /** The repository checksum of these keys and contents (key, content, …). */
  private static String checksumOf(String... keysAndContents) {
    Map<String, String> checksums = new LinkedHashMap<>();
    for (int i = 0; i < keysAndContents.length; i += 2) {
      checksums.put(keysAndContents[i], Checksums.ofContent(keysAndContents[i + 1]));
    }
    return Checksums.ofRepository(checksums);
  }

  private static Map<String, String> contents(ExtractableResponse<Response> full) {
    return full.jsonPath().getMap("content.entries");
  }

  /** alice's waiting edit of a.md, delete of b.md and new c.md over the approved a.md and b.md. */
  private static String repositoryWithWaitingChanges(String prefix) {
    String repo = freshAcme(prefix);
    put(WRITER, repo, entries("a.md", "one", "b.md", "two"));
    requireReview(repo);
    put(WRITER, repo, entries("a.md", "one, edited", "c.md", "new"));
    delete(WRITER, repo, "b.md");
    return repo;
  }

  @Test
  void theFullReadTheHashesAndTheETagAreEachCallersView() {
    String repo = repositoryWithWaitingChanges("views-get");
    String approved = checksumOf("a.md", "one", "b.md", "two");
    String newest = checksumOf("a.md", "one, edited", "c.md", "new");

    for (String teammate : List.of(TEAMMATE, READER)) {
      ExtractableResponse<Response> full = get(teammate, repo);
      assertThat(contents(full))
          .containsExactly(Map.entry("a.md", "one"), Map.entry("b.md", "two"));
      assertThat(full.header("ETag")).isEqualTo(ETags.quote(approved));
      assertThat(full.jsonPath().getString("checksum")).isEqualTo(approved);
      assertThat(full.jsonPath().getMap("deletedKeys")).isNull();
      JsonPath view = hashes(teammate, repo).jsonPath();
      assertThat(view.getString("checksum")).isEqualTo(approved);
      assertThat(view.getMap("entryChecksums")).containsOnlyKeys("a.md", "b.md");
      assertThat(
              as(teammate)
                  .queryParam("repo", repo)
                  .header("If-None-Match", ETags.quote(approved))
                  .get(PATH)
                  .then()
                  .extract()
                  .statusCode())
          .isEqualTo(304);
    }
    for (String seesNewest : List.of(WRITER, REVIEWER)) {
      ExtractableResponse<Response> full = get(seesNewest, repo);
      assertThat(contents(full))
          .containsExactly(Map.entry("a.md", "one, edited"), Map.entry("c.md", "new"));
      assertThat(full.jsonPath().getMap("deletedKeys")).containsOnlyKeys("b.md");
      assertThat(full.header("ETag")).isEqualTo(ETags.quote(newest));
      assertThat(hashes(seesNewest, repo).jsonPath().getString("checksum")).isEqualTo(newest);
    }

    decide(repo, "a.md", "approve");

    assertThat(contents(get(TEAMMATE, repo)))
        .containsExactly(Map.entry("a.md", "one, edited"), Map.entry("b.md", "two"));
    decide(repo, "b.md", "approve");
    ExtractableResponse<Response> afterDelete = get(TEAMMATE, repo);
    assertThat(contents(afterDelete)).containsExactly(Map.entry("a.md", "one, edited"));
    assertThat(afterDelete.jsonPath().getMap("deletedKeys")).containsOnlyKeys("b.md");
  }

  @Test
  void anAuthorSeesTheirOwnWaitingChangesButNotATeammatesOnes() {
    String repo = repositoryWithWaitingChanges("views-authors");
    put(TEAMMATE, repo, entries("a.md", "carol's take", "d.md", "carol's"));

    // alice: her own edit of a.md (carol's later one waits, and is not hers), c.md, no b.md.
    ExtractableResponse<Response> alice = get(WRITER, repo);
    assertThat(contents(alice))
        .containsExactly(Map.entry("a.md", "one, edited"), Map.entry("c.md", "new"));
    assertThat(alice.jsonPath().getMap("deletedKeys")).containsOnlyKeys("b.md");
    // carol: her own a.md and d.md over the approved b.md.
    assertThat(contents(get(TEAMMATE, repo)))
        .containsExactly(
            Map.entry("a.md", "carol's take"),
            Map.entry("b.md", "two"),
            Map.entry("d.md", "carol's"));
    // the reviewer: the newest of everything.
    assertThat(contents(get(REVIEWER, repo)))
        .containsExactly(
            Map.entry("a.md", "carol's take"),
            Map.entry("c.md", "new"),
            Map.entry("d.md", "carol's"));
    // bob: the approved state only.
    assertThat(contents(get(READER, repo)))
        .containsExactly(Map.entry("a.md", "one"), Map.entry("b.md", "two"));
  }

  /**
   * The reference client's flow (Claude Code 2.1.88: GET, the hashes probe, a PUT with If-Match,
   * and on 412 a new GET and a retry) for a teammate while a change of someone else waits: the
   * waiting change never fails the teammate's precondition; a change that reaches their view does,
   * once, and the retry lands.
   */
  @Test
  void theReferenceClientsFlowWorksForATeammateWhileChangesWait() {
    String repo = repositoryWithWaitingChanges("views-reference-flow");

    String etag = get(TEAMMATE, repo).header("ETag");
    String probed = hashes(TEAMMATE, repo).jsonPath().getString("checksum");
    assertThat(ETags.quote(probed)).isEqualTo(etag);
    ExtractableResponse<Response> first =
        as(TEAMMATE)
            .queryParam("repo", repo)
            .header("If-Match", etag)
            .body(entries("d.md", "carol's"))
            .put(PATH)
            .then()
            .extract();
    assertThat(first.statusCode()).isEqualTo(200);
    String mine = checksumOf("a.md", "one", "b.md", "two", "d.md", "carol's");
    assertThat(first.jsonPath().getString("checksum")).isEqualTo(mine);
    assertThat(first.header("ETag")).isEqualTo(ETags.quote(mine));
    assertThat(hashes(TEAMMATE, repo).jsonPath().getString("checksum")).isEqualTo(mine);

    // alice writes again (it waits): carol's next PUT with her ETag still lands.
    put(WRITER, repo, entries("a.md", "one, edited again"));
    ExtractableResponse<Response> second =
        as(TEAMMATE)
            .queryParam("repo", repo)
            .header("If-Match", first.header("ETag"))
            .body(entries("e.md", "carol's too"))
            .put(PATH)
            .then()
            .extract();
    assertThat(second.statusCode()).isEqualTo(200);

    // rita's own write is approved as made: it reaches carol's view, so carol's ETag is stale.
    put(REVIEWER, repo, entries("f.md", "rita's"));
    ExtractableResponse<Response> stale =
        as(TEAMMATE)
            .queryParam("repo", repo)
            .header("If-Match", second.header("ETag"))
            .body(entries("g.md", "carol's third"))
            .put(PATH)
            .then()
            .extract();
    assertThat(stale.statusCode()).isEqualTo(412);
    ExtractableResponse<Response> again = get(TEAMMATE, repo);
    assertThat(stale.jsonPath().getString("error.details.checksum"))
        .isEqualTo(ETags.unquote(again.header("ETag")));
    assertThat(contents(again))
        .containsOnlyKeys("a.md", "b.md", "d.md", "e.md", "f.md")
        .containsEntry("a.md", "one");
    ExtractableResponse<Response> retried =
        as(TEAMMATE)
            .queryParam("repo", repo)
            .header("If-Match", again.header("ETag"))
            .body(entries("g.md", "carol's third"))
            .put(PATH)
            .then()
            .extract();
    assertThat(retried.statusCode()).isEqualTo(200);
    assertThat(contents(get(TEAMMATE, repo))).containsEntry("g.md", "carol's third");
    assertThat(contents(get(WRITER, repo)))
        .doesNotContainKeys("d.md", "e.md", "g.md")
        .containsEntry("f.md", "rita's");
  }

  @Test
  void aDeleteWithIfMatchComparesTheCallersView() {
    String repo = repositoryWithWaitingChanges("views-delete");
    String etag = get(TEAMMATE, repo).header("ETag");

    ExtractableResponse<Response> deleted =
        as(TEAMMATE)
            .queryParam("repo", repo)
            .queryParam("key", "a.md")
            .header("If-Match", etag)
            .delete(PATH)
            .then()
            .extract();

    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(deleted.jsonPath().getString("checksum")).isEqualTo(checksumOf("b.md", "two"));
    assertThat(contents(get(READER, repo))).containsOnlyKeys("a.md", "b.md");
  }

  @Test
  void aDeleteExpectingTheContentATeammateSawWaitsInsteadOfFailing() {
    String repo = repositoryWithWaitingChanges("views-delete-expected");

    ExtractableResponse<Response> deleted =
        as(TEAMMATE)
            .queryParam("repo", repo)
            .queryParam("key", "a.md")
            .queryParam("expected_checksum", Checksums.ofContent("one"))
            .delete(PATH)
            .then()
            .extract();

    assertThat(deleted.statusCode()).isEqualTo(200);
    assertThat(contents(get(TEAMMATE, repo))).containsOnlyKeys("b.md");
    assertThat(contents(get(READER, repo))).containsOnlyKeys("a.md", "b.md");
  }

  @Test
  void bothChangeFeedFormsAnswerEachCallersView() {
    String repo = freshAcme("views-feed");
    put(WRITER, repo, entries("a.md", "one"));
    requireReview(repo);
    ExtractableResponse<Response> before = get(TEAMMATE, repo);
    long seen = before.jsonPath().getLong("version");
    String seenChecksum = before.jsonPath().getString("checksum");

    long written =
        put(WRITER, repo, entries("a.md", "two", "b.md", "new")).jsonPath().getLong("version");

    // since: the waiting change does not change carol's view, so there is nothing to tell her.
    assertThat(since(TEAMMATE, repo, seenChecksum).statusCode()).isEqualTo(304);
    ExtractableResponse<Response> forAlice = since(WRITER, repo, seenChecksum);
    assertThat(forAlice.statusCode()).isEqualTo(200);
    assertThat(forAlice.jsonPath().getMap("entryChecksums")).containsOnlyKeys("a.md", "b.md");
    // after_version: the key stamped comes as carol has it; the new key is not in her view.
    ExtractableResponse<Response> carolsAfter = after(TEAMMATE, repo, seen);
    assertThat(carolsAfter.statusCode()).isEqualTo(200);
    assertThat(carolsAfter.jsonPath().getLong("version")).isEqualTo(written);
    assertThat(carolsAfter.jsonPath().getString("checksum")).isEqualTo(seenChecksum);
    assertThat(carolsAfter.jsonPath().getMap("changed"))
        .containsExactly(Map.entry("a.md", Checksums.ofContent("one")));
    ExtractableResponse<Response> alicesAfter = after(WRITER, repo, seen);
    assertThat(alicesAfter.jsonPath().getMap("changed"))
        .containsExactly(
            Map.entry("a.md", Checksums.ofContent("two")),
            Map.entry("b.md", Checksums.ofContent("new")));
    assertThat(alicesAfter.jsonPath().getString("checksum"))
        .isEqualTo(checksumOf("a.md", "two", "b.md", "new"));

    decide(repo, "a.md", "approve");

    ExtractableResponse<Response> approved = since(TEAMMATE, repo, seenChecksum);
    assertThat(approved.statusCode()).isEqualTo(200);
    assertThat(approved.jsonPath().getMap("entryChecksums"))
        .containsExactly(Map.entry("a.md", Checksums.ofContent("two")));
    ExtractableResponse<Response> approvedAfter = after(TEAMMATE, repo, written);
    assertThat(approvedAfter.jsonPath().getMap("changed"))
        .containsExactly(Map.entry("a.md", Checksums.ofContent("two")));
    assertThat(approvedAfter.jsonPath().getString("checksum")).isEqualTo(checksumOf("a.md", "two"));
  }

  @Test
  void switchingReviewOffWakesTeammatesWithANewVersion() {
    String repo = freshAcme("views-off");
    put(WRITER, repo, entries("a.md", "one"));
    requireReview(repo);
    long written = put(WRITER, repo, entries("a.md", "two")).jsonPath().getLong("version");

    as(ADMIN)
        .queryParam("repo", repo)
        .body(Map.of("review", "off"))
        .put(PATH + "/settings")
        .then()
        .statusCode(200);

    ExtractableResponse<Response> feed = after(TEAMMATE, repo, written);
    assertThat(feed.statusCode()).isEqualTo(200);
    assertThat(feed.jsonPath().getMap("changed"))
        .containsExactly(Map.entry("a.md", Checksums.ofContent("two")));
    assertThat(contents(get(TEAMMATE, repo))).containsExactly(Map.entry("a.md", "two"));
  }

  @Test
  void theMemoryStoresApiListsRetrievesExportsAndVersionsEachCallersView() {
    String repo = repositoryWithWaitingChanges("views-stores");
    String store = storeIdOf(repo);

    JsonPath carols =
        as(TEAMMATE)
            .queryParam("view", "full")
            .get(STORES + store + "/memories")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(carols.getList("data.path")).containsExactly("/a.md", "/b.md");
    assertThat(carols.getList("data.content")).containsExactly("one", "two");
    JsonPath alices =
        as(WRITER)
            .queryParam("view", "full")
            .get(STORES + store + "/memories")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(alices.getList("data.path")).containsExactly("/a.md", "/c.md");
    assertThat(alices.getList("data.content")).containsExactly("one, edited", "new");

    String memory = carols.getString("data[0].id");
    assertThat(memory).isEqualTo(alices.getString("data[0].id"));
    assertThat(retrieve(TEAMMATE, store, memory).getString("content")).isEqualTo("one");
    assertThat(retrieve(WRITER, store, memory).getString("content")).isEqualTo("one, edited");
    assertThat(retrieve(REVIEWER, store, memory).getString("content")).isEqualTo("one, edited");
    String created = alices.getString("data[1].id");
    assertThat(
            as(TEAMMATE).get(STORES + store + "/memories/" + created).then().extract().statusCode())
        .isEqualTo(404);

    assertThat(exportedContents(TEAMMATE, store)).containsExactly("one", "two");
    assertThat(exportedContents(WRITER, store)).containsExactly("one, edited", "new");

    // versions: the waiting edit's content is its author's and the reviewers' to see.
    assertThat(versionContents(TEAMMATE, store, memory)).containsExactly("one");
    assertThat(versionContents(WRITER, store, memory)).containsExactly("one, edited", "one");
    assertThat(versionContents(REVIEWER, store, memory)).containsExactly("one, edited", "one");
    // and team_memory's history likewise.
    assertThat(history(TEAMMATE, repo, "a.md")).containsExactly("one");
    assertThat(history(REVIEWER, repo, "a.md")).containsExactly("one, edited", "one");
  }

  @Test
  void aWaitingRenameLeavesTheMemoryWhereTeammatesSawItUntilApproved() {
    String repo = freshAcme("views-rename");
    put(WRITER, repo, entries("a.md", "one"));
    requireReview(repo);
    String store = storeIdOf(repo);
    String memory =
        as(WRITER)
            .get(STORES + store + "/memories")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getString("data[0].id");

    as(WRITER)
        .body(Map.of("path", "/renamed.md"))
        .post(STORES + store + "/memories/" + memory)
        .then()
        .statusCode(200);

    assertThat(contents(get(TEAMMATE, repo))).containsExactly(Map.entry("a.md", "one"));
    assertThat(retrieve(TEAMMATE, store, memory).getString("path")).isEqualTo("/a.md");
    ExtractableResponse<Response> alice = get(WRITER, repo);
    assertThat(contents(alice)).containsExactly(Map.entry("renamed.md", "one"));
    assertThat(alice.jsonPath().getMap("deletedKeys")).containsOnlyKeys("a.md");
    assertThat(retrieve(WRITER, store, memory).getString("path")).isEqualTo("/renamed.md");

    decide(repo, "renamed.md", "approve");
    decide(repo, "a.md", "approve");

    ExtractableResponse<Response> carol = get(TEAMMATE, repo);
    assertThat(contents(carol)).containsExactly(Map.entry("renamed.md", "one"));
    assertThat(carol.jsonPath().getMap("deletedKeys")).containsOnlyKeys("a.md");
  }

  @Test
  void aStorePreconditionAndWhatCountsAsAChangeAreTheCallersView() {
    String repo = repositoryWithWaitingChanges("views-precondition");
    String store = storeIdOf(repo);
    String memory = idOf(TEAMMATE, store, "/a.md");
    String sawOne = Checksums.ofContent("one").substring("sha256:".length());

    // carol sends back the approved content she sees: nothing changes for her, and the answer is
    // what she sees, not alice's waiting edit.
    JsonPath unchanged = update(TEAMMATE, store, memory, "one", sawOne, 200);
    assertThat(unchanged.getString("content")).isEqualTo("one");
    assertThat(waitingAuthors(repo, "a.md")).containsExactly("alice");

    // carol writes, over the version she saw, the very content alice's change waits with: her own
    // change (never a 409 for alice's waiting one, never an "unchanged" that records nothing).
    JsonPath written = update(TEAMMATE, store, memory, "one, edited", sawOne, 200);
    assertThat(written.getString("content")).isEqualTo("one, edited");
    assertThat(waitingAuthors(repo, "a.md")).containsExactlyInAnyOrder("alice", "carol");

    // a precondition naming content carol never saw is stale for her.
    update(TEAMMATE, store, memory, "three", Checksums.ofContent("x").substring(7), 409);
  }

  @Test
  void aStoreUpdateOfAMemoryATeammatesWaitingDeleteRemovedIsTheCallersOwnChange() {
    String repo = repositoryWithWaitingChanges("views-store-revive");
    String store = storeIdOf(repo);
    // alice's delete of b.md waits: carol still sees b.md and edits it over the content she saw.
    String memory = idOf(TEAMMATE, store, "/b.md");
    String sawTwo = Checksums.ofContent("two").substring("sha256:".length());

    JsonPath written = update(TEAMMATE, store, memory, "two, by carol", sawTwo, 200);
    assertThat(written.getString("id")).isEqualTo(memory);
    assertThat(written.getString("content")).isEqualTo("two, by carol");
    assertThat(waitingAuthors(repo, "b.md")).containsExactlyInAnyOrder("alice", "carol");
    assertThat(retrieve(TEAMMATE, store, memory).getString("content")).isEqualTo("two, by carol");
    assertThat(contents(get(REVIEWER, repo)))
        .containsExactly(
            Map.entry("a.md", "one, edited"),
            Map.entry("b.md", "two, by carol"),
            Map.entry("c.md", "new"));
    // alice still sees her own delete, and the reviewer's store holds three memories again.
    assertThat(contents(get(WRITER, repo))).doesNotContainKey("b.md");
    assertThat(
            as(REVIEWER)
                .get(STORES + store + "/memories")
                .then()
                .extract()
                .jsonPath()
                .getList("data.path"))
        .containsExactly("/a.md", "/b.md", "/c.md");
  }

  @Test
  void aTeamMemoryPutOfATeammatesWaitingContentIsTheCallersOwnChange() {
    String repo = repositoryWithWaitingChanges("views-same-content");
    put(TEAMMATE, repo, entries("c.md", "new"));
    assertThat(waitingAuthors(repo, "c.md")).containsExactlyInAnyOrder("alice", "carol");
    assertThat(contents(get(TEAMMATE, repo))).containsEntry("c.md", "new");
    // and the approved content sent back is no change at all.
    String before = hashes(TEAMMATE, repo).jsonPath().getString("checksum");
    put(TEAMMATE, repo, entries("a.md", "one"));
    assertThat(waitingAuthors(repo, "a.md")).containsExactly("alice");
    assertThat(hashes(TEAMMATE, repo).jsonPath().getString("checksum")).isEqualTo(before);
  }

  @Test
  void aStoreCreateAtATeammatesWaitingPathIsTheCallersOwnChangeAndItsConflictsAreTheirView() {
    String repo = repositoryWithWaitingChanges("views-store-create");
    String store = storeIdOf(repo);

    // c.md is alice's, never approved: carol does not see it, so creating it (with the very
    // content alice's change waits with) is carol's own change, as her team_memory PUT would be.
    JsonPath created =
        as(TEAMMATE)
            .body(Map.of("path", "/c.md", "content", "new"))
            .post(STORES + store + "/memories")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(created.getString("content")).isEqualTo("new");
    assertThat(waitingAuthors(repo, "c.md")).containsExactlyInAnyOrder("alice", "carol");
    assertThat(contents(get(TEAMMATE, repo)))
        .containsExactly(
            Map.entry("a.md", "one"), Map.entry("b.md", "two"), Map.entry("c.md", "new"));
    assertThat(contents(get(REVIEWER, repo)))
        .containsExactly(Map.entry("a.md", "one, edited"), Map.entry("c.md", "new"));

    // b.md waits deleted by alice, but carol still sees it: creating it conflicts for her.
    JsonPath conflict =
        as(TEAMMATE)
            .body(Map.of("path", "/b.md", "content", "again"))
            .post(STORES + store + "/memories")
            .then()
            .statusCode(409)
            .extract()
            .jsonPath();
    assertThat(conflict.getString("error.message")).contains("/b.md");
    assertThat(waitingAuthors(repo, "b.md")).containsExactly("alice");
  }

  @Test
  void changesWaitingForOneKeyAreBoundedAndTheRefusalWritesNothing() {
    String repo = freshAcme("views-bounded");
    put(WRITER, repo, entries("a.md", "approved"));
    requireReview(repo);
    for (int i = 1; i <= 20; i++) {
      put(WRITER, repo, entries("a.md", "edit " + i));
    }
    long version = hashes(WRITER, repo).jsonPath().getLong("version");
    ExtractableResponse<Response> refused =
        as(WRITER)
            .queryParam("repo", repo)
            .body(entries("a.md", "edit 21", "b.md", "other"))
            .put(PATH)
            .then()
            .extract();
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.jsonPath().getString("error.details.error_code"))
        .isEqualTo("too_many_waiting_changes");
    assertThat(refused.jsonPath().getString("error.message")).contains("a.md", "20");
    assertThat(hashes(WRITER, repo).jsonPath().getLong("version")).isEqualTo(version);
    assertThat(contents(get(WRITER, repo))).containsExactly(Map.entry("a.md", "edit 20"));

    String store = storeIdOf(repo);
    String memory = idOf(WRITER, store, "/a.md");
    assertThat(
            as(WRITER)
                .body(Map.of("content", "edit 21"))
                .post(STORES + store + "/memories/" + memory)
                .then()
                .statusCode(429)
                .extract()
                .jsonPath()
                .getString("error.type"))
        .isEqualTo("rate_limit_error");

    // once a reviewer decides, the key takes changes again.
    decide(repo, "a.md", "approve");
    put(WRITER, repo, entries("a.md", "edit 21"));
  }

  @Test
  void waitingContentIsBoundedInBytesPerRepositoryAndTheRefusalWritesNothing() {
    // the test profile bounds waiting content at 100,000 bytes a repository.
    String repo = freshAcme("views-bounded-bytes");
    put(WRITER, repo, entries("a.md", "approved"));
    requireReview(repo);
    String thirtyThousand = "x".repeat(30_000);
    put(WRITER, repo, entries("b.md", thirtyThousand, "c.md", thirtyThousand));
    put(TEAMMATE, repo, entries("d.md", thirtyThousand));
    long version = hashes(REVIEWER, repo).jsonPath().getLong("version");

    ExtractableResponse<Response> refused =
        as(TEAMMATE)
            .queryParam("repo", repo)
            .body(entries("e.md", thirtyThousand))
            .put(PATH)
            .then()
            .extract();
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.jsonPath().getString("error.details.error_code"))
        .isEqualTo("too_many_waiting_changes");
    assertThat(refused.jsonPath().getString("error.message"))
        .isEqualTo(
            "the changes waiting for review in this repository would hold more than 100000"
                + " bytes; a reviewer must approve or reject some first");
    assertThat(hashes(REVIEWER, repo).jsonPath().getLong("version")).isEqualTo(version);
    assertThat(waitingAuthors(repo, "e.md")).isEmpty();

    // the store API refuses the same, in its envelope.
    String store = storeIdOf(repo);
    assertThat(
            as(TEAMMATE)
                .body(Map.of("path", "/e.md", "content", thirtyThousand))
                .post(STORES + store + "/memories")
                .then()
                .statusCode(429)
                .extract()
                .jsonPath()
                .getString("error.type"))
        .isEqualTo("rate_limit_error");

    // a reviewer's write is approved as it is made: it waits for nobody, so it is not bounded.
    put(REVIEWER, repo, entries("e.md", thirtyThousand));
    // and once a reviewer decides, the repository takes waiting changes again.
    decide(repo, "b.md", "approve");
    put(TEAMMATE, repo, entries("f.md", thirtyThousand));
  }

  private static String idOf(String token, String store, String path) {
    return as(token)
        .get(STORES + store + "/memories")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("data.find { it.path == '" + path + "' }.id");
  }

  private static JsonPath update(
      String token, String store, String memory, String content, String sawSha, int status) {
    return as(token)
        .body(
            Map.of(
                "content",
                content,
                "precondition",
                Map.of("type", "content_sha256", "content_sha256", sawSha)))
        .post(STORES + store + "/memories/" + memory)
        .then()
        .statusCode(status)
        .extract()
        .jsonPath();
  }

  /** Who wrote the changes of {@code key} that wait, as a reviewer lists them. */
  private static List<String> waitingAuthors(String repo, String key) {
    return as(REVIEWER)
        .queryParam("repo", repo)
        .queryParam("status", "pending")
        .get(PATH + "/reviews")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("data.findAll { it.key == '" + key + "' }.author");
  }

  private static JsonPath retrieve(String token, String store, String memory) {
    return as(token)
        .get(STORES + store + "/memories/" + memory)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath();
  }

  private static List<String> exportedContents(String token, String store) {
    String body =
        as(token)
            .get(STORES + store + "/memories/export")
            .then()
            .statusCode(200)
            .extract()
            .asString();
    return Arrays.stream(body.split("\n"))
        .map(JsonPath::from)
        .filter(line -> "memory".equals(line.getString("type")))
        .map(line -> line.getString("content"))
        .toList();
  }

  private static List<String> versionContents(String token, String store, String memory) {
    return as(token)
        .queryParam("memory_id", memory)
        .queryParam("view", "full")
        .get(STORES + store + "/memory_versions")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("data.content");
  }

  private static List<String> history(String token, String repo, String key) {
    return as(token)
        .queryParam("repo", repo)
        .queryParam("key", key)
        .get(PATH + "/history")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getList("versions.content");
  }
}
