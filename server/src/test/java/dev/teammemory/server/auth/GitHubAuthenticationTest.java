package dev.teammemory.server.auth;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.github.FakeGitHubResource.gitHub;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import dev.teammemory.server.github.FakeGitHub.Availability;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The auth matrix for GitHub tokens through the real HTTP paths: the server verifies each token
 * with quarkus-oidc against a fake GitHub API and reads the repository's permissions from it.
 */
@QuarkusTest
class GitHubAuthenticationTest {

  private static final AtomicLong NEXT_USER_ID = new AtomicLong(7_000_000);

  @Inject RepositoryAccessCache cache;
  @Inject GitHubConfig config;

  @AfterEach
  void gitHubIsBack() {
    gitHub().availability(Availability.UP);
    gitHub().repositoryDelay(Duration.ZERO);
  }

  /** A GitHub user no other test knows, with their token. */
  private record GitHubUser(String login, long id, String token) {}

  private static GitHubUser newUser(String login) {
    long id = NEXT_USER_ID.incrementAndGet();
    GitHubUser user = new GitHubUser(login + "-" + id, id, "gho_" + login + id + "Zq7");
    gitHub().addUser(user.token(), user.login(), user.id());
    return user;
  }

  @Test
  void aPusherWritesAndReadsAndHistoryNamesTheirLogin() {
    GitHubUser user = newUser("pusher");
    String repo = fresh("gh-push");
    gitHub().grant(user.login(), repo, "write");

    putAs(user.token(), repo, "one").statusCode(200);
    getAs(user.token(), repo).statusCode(200).body("content.entries.'a.md'", equalTo("one"));
    as(user.token())
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .get(PATH + "/history")
        .then()
        .statusCode(200)
        .body("versions[0].author", equalTo(user.login()));
  }

  @Test
  void aReaderReadsButAPutIs403AndWritesNothing() {
    GitHubUser reader = newUser("reader");
    String repo = fresh("gh-read");
    gitHub().grant(reader.login(), repo, "read");
    putAs(WRITER, repo, "one").statusCode(200);

    getAs(reader.token(), repo).statusCode(200);
    putAs(reader.token(), repo, "changed")
        .statusCode(403)
        .body("error.details.error_code", equalTo("forbidden"))
        .body("error.message", containsString("writing needs write (push) access"));

    getAs(WRITER, repo).body("content.entries.'a.md'", equalTo("one"));
  }

  @Test
  void aRepositoryGitHubHidesIs404ForReadsAndWrites() {
    GitHubUser outsider = newUser("outsider");
    String repo = fresh("gh-hidden");
    putAs(WRITER, repo, "one").statusCode(200);

    getAs(outsider.token(), repo)
        .statusCode(404)
        .body("error.details.error_code", equalTo("not_found"));
    putAs(outsider.token(), repo, "mine now").statusCode(404);
    getAs(WRITER, repo).body("content.entries.'a.md'", equalTo("one"));
  }

  @Test
  void aTokenGitHubRejectsIs401WithTheBearerChallenge() {
    String repo = fresh("gh-bad-token");
    putAs("gho_neverIssuedByGitHub", repo, "one")
        .statusCode(401)
        .header("WWW-Authenticate", startsWith("Bearer"))
        .body("error.details.error_code", equalTo("unauthorized"))
        .body("error.message", containsString("tmem login"))
        .body("error.message", not(containsString("gho_")));
    getAs(WRITER, repo).statusCode(404);
  }

  @Test
  void aJwtShapedTokenGitHubDoesNotKnowIs401() {
    getAs("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJl", fresh("gh-jwt"))
        .statusCode(401)
        .body("error.details.error_code", equalTo("unauthorized"));
  }

  @Test
  void aVerifiedTokenAndItsPermissionAreCachedSoGitHubIsNotAskedOnEveryRequest() {
    GitHubUser user = newUser("cached");
    String repo = fresh("gh-cache");
    gitHub().grant(user.login(), repo, "write");
    int userCallsBefore = gitHub().userCalls();
    int repositoryCallsBefore = gitHub().repositoryCalls();

    for (int i = 0; i < 5; i++) {
      as(user.token())
          .queryParam("repo", repo)
          .queryParam("view", "hashes")
          .get(PATH)
          .then()
          .statusCode(404); // empty repository, readable
    }

    assertThat(gitHub().userCalls() - userCallsBefore).isEqualTo(1);
    assertThat(gitHub().repositoryCalls() - repositoryCallsBefore).isEqualTo(1);
  }

  @Test
  void requestsThatMissTheCacheTogetherCostGitHubOneRepositoryCall() throws Exception {
    GitHubUser user = newUser("parallel");
    String repo = fresh("gh-parallel");
    gitHub().grant(user.login(), repo, "read");
    getAs(user.token(), fresh("gh-warm-up")).statusCode(404); // the token is verified and cached
    gitHub().repositoryDelay(Duration.ofMillis(500));
    int repositoryCallsBefore = gitHub().repositoryCalls();

    ExecutorService clients = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> statuses = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        // The hashes view: a full GET is admitted at most 4 at once per caller (429 beyond), and
        // all 8 pass the shared permission lookup together.
        statuses.add(
            clients.submit(
                () ->
                    as(user.token())
                        .queryParam("repo", repo)
                        .queryParam("view", "hashes")
                        .get(PATH)
                        .then()
                        .extract()
                        .statusCode()));
      }
      for (Future<Integer> status : statuses) {
        assertThat(status.get(30, TimeUnit.SECONDS)).isEqualTo(404); // readable, still empty
      }
    } finally {
      clients.shutdownNow();
    }

    assertThat(gitHub().repositoryCalls() - repositoryCallsBefore).isEqualTo(1);
  }

  @Test
  void aChangedPermissionTakesEffectOnceTheExpiryJobDropsTheCachedOne() {
    GitHubUser user = newUser("demoted");
    String repo = fresh("gh-demoted");
    gitHub().grant(user.login(), repo, "write");
    putAs(user.token(), repo, "one").statusCode(200);

    gitHub().grant(user.login(), repo, "read");
    putAs(user.token(), repo, "two").statusCode(200); // the cached push permission still holds

    // The expiry job's delegate, run as if the cache lifetime had passed.
    assertThat(cache.expire(Instant.now().plus(config.cacheTtl()).plusSeconds(1))).isPositive();

    putAs(user.token(), repo, "three").statusCode(403);
    getAs(user.token(), repo).statusCode(200);
  }

  @Test
  void permissionsAreCachedUnderTheTokensDigestNotTheUser() {
    GitHubUser user = newUser("cached");
    String repo = fresh("gh-digest");
    gitHub().grant(user.login(), repo, "read");
    getAs(user.token(), repo).statusCode(404);

    RepositorySlug slug = RepositorySlug.parse(repo).orElseThrow();
    assertThat(cache.lookup(TokenDigest.of(user.token()), slug, Instant.now()))
        .contains(Permission.READ);
    assertThat(TokenDigest.of(user.token())).matches("[0-9a-f]{64}");
    assertThat(cache.lookup(TokenDigest.of(user.token() + "x"), slug, Instant.now())).isEmpty();
  }

  @Test
  void aNarrowerTokenOfTheSameUserNeverBorrowsWhatABroaderTokenWasTold() {
    GitHubUser user = newUser("two-tokens");
    String reached = fresh("gh-narrow-reached");
    String beyond = fresh("gh-narrow-beyond");
    gitHub().grant(user.login(), reached, "write");
    gitHub().grant(user.login(), beyond, "write");
    String narrow = "github_pat_narrow" + user.id();
    gitHub().addNarrowToken(narrow, user.login(), user.id(), reached);

    putAs(user.token(), beyond, "by the broad token").statusCode(200);
    putAs(user.token(), reached, "by the broad token").statusCode(200);

    putAs(narrow, beyond, "by the narrow token").statusCode(404);
    getAs(narrow, beyond).statusCode(404);
    getAs(user.token(), beyond)
        .statusCode(200)
        .body("content.entries.'a.md'", equalTo("by the broad token"));
    putAs(narrow, reached, "by the narrow token").statusCode(200);
  }

  @Test
  void aTokenRevokedAfterItWasCachedIs401OnceGitHubIsAskedAboutARepository() {
    GitHubUser user = newUser("revoked");
    String repo = fresh("gh-revoked");
    gitHub().grant(user.login(), repo, "write");
    putAs(user.token(), repo, "one").statusCode(200);

    gitHub().revoke(user.token());
    cache.expire(Instant.now().plus(config.cacheTtl()).plusSeconds(1));

    putAs(user.token(), repo, "two")
        .statusCode(401)
        .header("WWW-Authenticate", startsWith("Bearer"))
        .body("error.message", containsString("tmem login"));
  }

  @Test
  void gitHubFailingOrUnreachableIs503NotA401() {
    for (Availability down : new Availability[] {Availability.FAILING, Availability.UNREACHABLE}) {
      GitHubUser user = newUser("during-" + down.name().toLowerCase());
      String repo = fresh("gh-down");
      gitHub().grant(user.login(), repo, "write");
      gitHub().availability(down);

      putAs(user.token(), repo, "one")
          .statusCode(503)
          .contentType("application/json")
          .header("Retry-After", "30")
          .body("error.details.error_code", equalTo("auth_provider_unavailable"))
          .body("error.message", containsString("GitHub could not be reached"));

      gitHub().availability(Availability.UP);
      getAs(WRITER, repo).statusCode(404);
    }
  }

  @Test
  void gitHubDownWhileAPermissionIsCheckedIs503() {
    GitHubUser user = newUser("permission-outage");
    String repo = fresh("gh-perm-down");
    gitHub().grant(user.login(), repo, "write");
    getAs(user.token(), fresh("gh-warm-up")).statusCode(404);

    gitHub().availability(Availability.FAILING);
    putAs(user.token(), repo, "one")
        .statusCode(503)
        .header("Retry-After", "30")
        .body("error.details.error_code", equalTo("auth_provider_unavailable"))
        .body("error.message", containsString("answered 502"));

    gitHub().availability(Availability.UP);
    putAs(user.token(), repo, "one").statusCode(200);
  }

  @Test
  void staticTokensKeepWorkingBesideGitHubAndNeverReachGitHub() {
    int userCallsBefore = gitHub().userCalls();
    as(WRITER)
        .queryParam("repo", fresh("static"))
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(200);
    assertThat(gitHub().userCalls()).isEqualTo(userCallsBefore);
  }

  /** PUTs {@code a.md} with the content as the token's holder. */
  private static ValidatableResponse putAs(String token, String repo, String content) {
    return as(token).queryParam("repo", repo).body(entries("a.md", content)).put(PATH).then();
  }

  /** The full GET as the token's holder. */
  private static ValidatableResponse getAs(String token, String repo) {
    return as(token).queryParam("repo", repo).get(PATH).then();
  }
}
