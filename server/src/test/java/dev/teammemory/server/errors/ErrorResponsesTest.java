package dev.teammemory.server.errors;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** No client ever sees an HTML page or a stack trace. */
@QuarkusTest
class ErrorResponsesTest {

  private static void assertJsonEnvelope(ExtractableResponse<Response> response, String code) {
    assertThat(response.contentType()).startsWith("application/json");
    assertThat(response.jsonPath().getString("error.details.error_code")).isEqualTo(code);
    assertThat(response.jsonPath().getString("error.message")).isNotBlank();
    assertThat(response.body().asString()).doesNotContain("<html").doesNotContain("at dev.");
  }

  @Test
  void unknownPathsReturnTheJsonEnvelopeNotAnHtmlPage() {
    for (String path :
        new String[] {"/", "/nope", "/api/claude_code/other", "/q/nope", PATH + "/x/y"}) {
      ExtractableResponse<Response> response =
          given()
              .accept("text/html")
              .auth()
              .oauth2(WRITER)
              .get(path)
              .then()
              .statusCode(404)
              .extract();
      assertJsonEnvelope(response, "not_found");
    }
  }

  @Test
  void wrongMethodReturns405InTheJsonEnvelope() {
    ExtractableResponse<Response> response =
        given().auth().oauth2(WRITER).post(PATH).then().statusCode(405).extract();
    assertJsonEnvelope(response, "method_not_allowed");
    ExtractableResponse<Response> patch =
        given().auth().oauth2(WRITER).patch(PATH + "/history").then().statusCode(405).extract();
    assertJsonEnvelope(patch, "method_not_allowed");
  }

  @Test
  void unexpectedFailureReturns500InternalErrorWithoutDetails() {
    ExtractableResponse<Response> response =
        given().auth().oauth2(WRITER).get(FailingResource.PATH).then().statusCode(500).extract();
    assertJsonEnvelope(response, "internal_error");
    assertThat(response.body().asString()).doesNotContain(FailingResource.MESSAGE);
  }

  @Test
  void operationsEndpointsAreOpenAndCountTeamMemoryRequests() {
    given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    given().auth().oauth2(WRITER).queryParam("repo", "test-owner/metrics").get(PATH);
    String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
    assertThat(metrics).contains("tmem_requests_total").contains("tmem_rejections_total");
    given()
        .get("/q/openapi")
        .then()
        .statusCode(200)
        .body(org.hamcrest.Matchers.containsString("/api/claude_code/team_memory"));
  }

  @Test
  void everyKnownLabelSetOfTheRefusalAndGitHubCountersIsExportedWithoutAFirstEvent() {
    String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();

    for (String code : Rejections.knownCodes()) {
      assertThat(metrics).contains("tmem_rejections_total{error_code=\"" + code + "\"}");
    }
    for (String endpoint : java.util.List.of("user", "repository", "repositories")) {
      for (String outcome : java.util.List.of("ok", "refused", "unavailable")) {
        assertThat(metrics)
            .containsPattern(
                "tmem_github_calls_total\\{(endpoint=\""
                    + endpoint
                    + "\",outcome=\""
                    + outcome
                    + "\"|outcome=\""
                    + outcome
                    + "\",endpoint=\""
                    + endpoint
                    + "\")\\}");
      }
    }
    assertThat(metrics)
        .contains("tmem_github_permission_lookups_total{result=\"hit\"}")
        .contains("tmem_github_permission_lookups_total{result=\"miss\"}");
  }
}
