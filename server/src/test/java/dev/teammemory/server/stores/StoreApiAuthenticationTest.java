package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.stores.StoreApi.STORES;
import static dev.teammemory.server.stores.StoreApi.assertError;
import static dev.teammemory.server.stores.StoreApi.storeOf;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** Keys, headers and the error envelope of {@code /v1}, sent the way older and newer SDKs do. */
@QuarkusTest
class StoreApiAuthenticationTest {

  @Test
  void xApiKeyIsAcceptedUnderV1AndTheSameKeyInBothHeadersToo() {
    String id = storeOf(fresh("key-header"));
    given().header("x-api-key", READER).get(STORES + "/" + id).then().statusCode(200);
    given()
        .header("x-api-key", READER)
        .header("Authorization", "Bearer " + READER)
        .get(STORES + "/" + id)
        .then()
        .statusCode(200);
  }

  @Test
  void differingKeysMissingKeysAndWrongKeysAre401AuthenticationErrors() {
    String id = storeOf(fresh("key-differ"));
    ExtractableResponse<Response> differing =
        given()
            .header("x-api-key", READER)
            .header("Authorization", "Bearer " + WRITER)
            .get(STORES + "/" + id)
            .then()
            .extract();
    assertError(differing, 401, "authentication_error");
    assertThat(differing.body().asString()).doesNotContain(READER).doesNotContain(WRITER);
    assertError(given().get(STORES).then().extract(), 401, "authentication_error");
    assertError(
        given().header("x-api-key", "not-a-token").get(STORES).then().extract(),
        401,
        "authentication_error");
    assertError(
        given().auth().oauth2("not-a-token").get(STORES).then().extract(),
        401,
        "authentication_error");
  }

  @Test
  void xApiKeyOutsideV1IsNotAKey() {
    String repo = fresh("key-outside");
    put(repo, entries("a.md", "one"));
    ExtractableResponse<Response> refused =
        given().header("x-api-key", WRITER).queryParam("repo", repo).get(PATH).then().extract();
    assertThat(refused.statusCode()).isEqualTo(401);
    // team_memory's own envelope, unchanged.
    assertThat(refused.jsonPath().getString("error.details.error_code")).isEqualTo("unauthorized");
    assertThat(refused.jsonPath().getString("type")).isNull();
  }

  @Test
  void unknownPathsAndMethodsUnderV1AnswerTheV1EnvelopeWithTheRequestId() {
    ExtractableResponse<Response> unknown =
        given()
            .auth()
            .oauth2(READER)
            .header("X-Request-Id", "req-store-1")
            .get("/v1/nothing/here")
            .then()
            .extract();
    assertError(unknown, 404, "not_found_error");
    assertThat(unknown.jsonPath().getString("request_id")).isEqualTo("req-store-1");
    assertError(
        given().auth().oauth2(WRITER).put(STORES).then().extract(), 405, "invalid_request_error");
  }

  @Test
  void unknownQueryParametersAreIgnored() {
    String id = storeOf(fresh("key-params"));
    given()
        .auth()
        .oauth2(READER)
        .queryParam("beta", "true")
        .queryParam("something_new", "1")
        .get(STORES + "/" + id + "/memories")
        .then()
        .statusCode(200);
  }
}
