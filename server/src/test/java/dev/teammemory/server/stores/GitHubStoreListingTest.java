package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.github.FakeGitHubResource.gitHub;
import static dev.teammemory.server.stores.StoreApi.STORES;
import static dev.teammemory.server.stores.StoreApi.storeOf;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Listing stores with a GitHub token: the server asks GitHub's {@code GET /user/repos} (every page)
 * which repositories the user can see, and caches the answer like single-repository permissions.
 */
@QuarkusTest
class GitHubStoreListingTest {

  private static final AtomicLong NEXT_USER_ID = new AtomicLong(8_000_000);

  @AfterEach
  void fullPagesAgain() {
    gitHub().listingPageSize(0);
  }

  private static List<String> listedIds(String token) {
    List<String> ids = new ArrayList<>();
    String page = null;
    do {
      var request = given().header("x-api-key", token).queryParam("limit", 2);
      if (page != null) {
        request.queryParam("page", page);
      }
      JsonPath listed = request.get(STORES).then().statusCode(200).extract().jsonPath();
      ids.addAll(listed.getList("data.id", String.class));
      page = listed.getString("next_page");
    } while (page != null);
    return ids;
  }

  @Test
  void aGitHubUserListsTheStoresOfTheRepositoriesGitHubListsAndTheListingIsCached() {
    long userId = NEXT_USER_ID.incrementAndGet();
    String login = "lister-" + userId;
    String token = "gho_lister" + userId + "Qx";
    gitHub().addUser(token, login, userId);
    gitHub().listingPageSize(2);
    String readable = fresh("gh-list-read");
    String writable = fresh("gh-list-write");
    String shouted = fresh("gh-list-case");
    String neverWritten = fresh("gh-list-none");
    String hidden = fresh("gh-list-hidden");
    gitHub().grant(login, readable, "read");
    gitHub().grant(login, writable, "write");
    // GitHub spells it its way; the repository's identity is case-insensitive.
    gitHub().grant(login, shouted.toUpperCase(Locale.ROOT), "read");
    gitHub().grant(login, neverWritten, "write");
    List<String> expected = List.of(storeOf(readable), storeOf(writable), storeOf(shouted));
    storeOf(hidden);
    int listingCallsBefore = gitHub().listingCalls();

    assertThat(listedIds(token)).containsExactlyInAnyOrderElementsOf(expected);
    int listingCalls = gitHub().listingCalls() - listingCallsBefore;
    // Four repositories, two a page, listed once for the whole walk through the stores.
    assertThat(listingCalls).isEqualTo(2);

    assertThat(listedIds(token)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(gitHub().listingCalls() - listingCallsBefore).isEqualTo(listingCalls);
  }

  @Test
  void aGitHubReaderCannotCreateAStoreAndAHiddenRepositoryIsNotFound() {
    long userId = NEXT_USER_ID.incrementAndGet();
    String login = "creator-" + userId;
    String token = "gho_creator" + userId + "Qx";
    gitHub().addUser(token, login, userId);
    String readable = fresh("gh-create-read");
    gitHub().grant(login, readable, "read");

    StoreApi.assertError(
        given()
            .auth()
            .oauth2(token)
            .contentType("application/json")
            .body(Map.of("name", readable))
            .post(STORES)
            .then()
            .extract(),
        403,
        "permission_error");
    StoreApi.assertError(
        given()
            .auth()
            .oauth2(token)
            .contentType("application/json")
            .body(Map.of("name", fresh("gh-create-hidden")))
            .post(STORES)
            .then()
            .extract(),
        404,
        "not_found_error");
  }

  @Test
  void aNarrowerTokenOfTheSameUserListsOnlyTheStoresItReaches() {
    long userId = NEXT_USER_ID.incrementAndGet();
    String login = "narrow-lister-" + userId;
    String broad = "gho_broad" + userId + "Qx";
    String narrow = "github_pat_narrow" + userId;
    String reached = fresh("gh-list-reached");
    String beyond = fresh("gh-list-beyond");
    gitHub().addUser(broad, login, userId);
    gitHub().addNarrowToken(narrow, login, userId, reached);
    gitHub().grant(login, reached, "read");
    gitHub().grant(login, beyond, "read");
    String reachedStore = storeOf(reached);
    String beyondStore = storeOf(beyond);

    assertThat(listedIds(broad)).containsExactlyInAnyOrder(reachedStore, beyondStore);
    assertThat(listedIds(narrow)).containsExactly(reachedStore);
  }
}
