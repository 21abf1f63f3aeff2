package dev.teammemory.server.auth;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import dev.teammemory.server.github.FakeGitHubResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AuthConfigResourceTest {

  @Test
  void authConfigNeedsNoTokenAndPointsAtTheConfiguredGitHub() {
    given()
        .when()
        .get("/api/auth/config")
        .then()
        .statusCode(200)
        .body("github.clientId", equalTo("Iv1.test0client"))
        .body(
            "github.deviceCodeUrl",
            equalTo(FakeGitHubResource.gitHub().webUrl() + "/login/device/code"))
        .body(
            "github.tokenUrl",
            equalTo(FakeGitHubResource.gitHub().webUrl() + "/login/oauth/access_token"))
        .body("github.apiUrl", equalTo(FakeGitHubResource.gitHub().apiUrl()))
        .body("github.scopes", contains("repo"));
  }

  @Test
  void otherApiPathsStillNeedAToken() {
    given()
        .when()
        .get("/api/claude_code/team_memory?repo=acme%2Fwidgets")
        .then()
        .statusCode(401)
        .body("error.details.error_code", equalTo("unauthorized"));
  }
}
