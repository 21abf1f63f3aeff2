package dev.teammemory.server.auth;

import static dev.teammemory.server.TestRepositories.ACME_WRITER;
import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WIDGETS_READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AuthenticationTest {

  @Test
  void requestWithoutATokenReturns401WithABearerChallenge() {
    String repo = fresh("anonymous");
    given()
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(401)
        .contentType("application/json")
        .header("WWW-Authenticate", startsWith("Bearer"))
        .body("error.details.error_code", equalTo("unauthorized"))
        .body(
            "error.message", equalTo("missing bearer token: send 'Authorization: Bearer <token>'"));
  }

  @Test
  void unknownTokenReturns401AndWritesNothing() {
    String repo = fresh("unknown-token");
    as("not-a-token")
        .queryParam("repo", repo)
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(401)
        .header("WWW-Authenticate", startsWith("Bearer"))
        .body("error.message", startsWith("the bearer token is not valid on this server"));
    as(WRITER).queryParam("repo", repo).get(PATH).then().statusCode(404);
  }

  @Test
  void basicCredentialsReturn401() {
    given()
        .auth()
        .preemptive()
        .basic("alice", WRITER)
        .queryParam("repo", fresh("basic"))
        .get(PATH)
        .then()
        .statusCode(401)
        .body(
            "error.message",
            equalTo("the Authorization header must carry a bearer token: 'Bearer <token>'"));
  }

  @Test
  void everyEndpointNeedsAToken() {
    String repo = fresh("every");
    given().queryParam("repo", repo).queryParam("view", "hashes").get(PATH).then().statusCode(401);
    given().queryParam("repo", repo).queryParam("key", "a.md").delete(PATH).then().statusCode(401);
    given()
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .get(PATH + "/history")
        .then()
        .statusCode(401);
    given()
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .queryParam("version", "1")
        .delete(PATH + "/history")
        .then()
        .statusCode(401);
    given()
        .queryParam("repo", repo)
        .queryParam("since", "sha256:" + "0".repeat(64))
        .queryParam("wait", "0")
        .get(PATH + "/changes")
        .then()
        .statusCode(401);
  }

  @Test
  void readOnlyCallerCanReadButPutAndDeleteReturn403AndWriteNothing() {
    String repo = fresh("read-only");
    put(repo, entries("a.md", "one"));
    String checksum = hashes(repo).jsonPath().getString("checksum");

    as(READER).queryParam("repo", repo).get(PATH).then().statusCode(200);
    as(READER)
        .queryParam("repo", repo)
        .body(entries("a.md", "two"))
        .put(PATH)
        .then()
        .statusCode(403)
        .body("error.details.error_code", equalTo("forbidden"));
    as(READER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .delete(PATH)
        .then()
        .statusCode(403);
    as(READER)
        .queryParam("repo", repo)
        .queryParam("key", "a.md")
        .queryParam("version", "1")
        .delete(PATH + "/history")
        .then()
        .statusCode(403);
    assertThat(hashes(repo).jsonPath().getString("checksum")).isEqualTo(checksum);
  }

  @Test
  void repositoryTheCallerCannotSeeReturns404WhetherOrNotItExists() {
    String written = "test-owner/" + UUID.randomUUID();
    put(written, entries("a.md", "one"));
    String neverWritten = "test-owner/" + UUID.randomUUID();

    for (String repo : new String[] {written, neverWritten}) {
      String message =
          as(ACME_WRITER)
              .queryParam("repo", repo)
              .get(PATH)
              .then()
              .statusCode(404)
              .body("error.details.error_code", equalTo("not_found"))
              .extract()
              .path("error.message");
      assertThat(message)
          .isEqualTo("repository " + repo + " has no team memory, or you have no access to it");
      as(ACME_WRITER)
          .queryParam("repo", repo)
          .body(entries("a.md", "two"))
          .put(PATH)
          .then()
          .statusCode(404);
    }
    assertThat(hashes(written).jsonPath().getLong("version")).isEqualTo(1);
  }

  @Test
  void ownerWildcardGrantsEveryRepositoryOfThatOwnerCaseInsensitively() {
    String name = "repo-" + UUID.randomUUID().toString().substring(0, 8);
    as(ACME_WRITER)
        .queryParam("repo", "ACME/" + name)
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(200);
    as(ACME_WRITER).queryParam("repo", "acme/" + name).get(PATH).then().statusCode(200);
  }

  @Test
  void grantsOfOneTokenOnSeveralLinesApplyPerRepository() {
    as(WIDGETS_READER)
        .queryParam("repo", "acme/widgets")
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(403);
    as(WIDGETS_READER)
        .queryParam("repo", "acme/gadgets")
        .body(entries("a.md", "one"))
        .put(PATH)
        .then()
        .statusCode(200);
    as(WIDGETS_READER).queryParam("repo", "acme/other").get(PATH).then().statusCode(404);
  }
}
