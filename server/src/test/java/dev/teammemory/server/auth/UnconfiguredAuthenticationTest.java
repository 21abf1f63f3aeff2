package dev.teammemory.server.auth;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With no tokens file and no GitHub configuration the server is closed, and says why. */
@QuarkusTest
@TestProfile(UnconfiguredAuthenticationTest.NoAuthentication.class)
class UnconfiguredAuthenticationTest {

  public static final class NoAuthentication implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("tmem.auth.static-tokens-file", "", "tmem.auth.github.client-id", "");
    }
  }

  @Test
  void everyRequestReturns401SayingHowToConfigureAuthentication() {
    for (String token : new String[] {WRITER, "anything"}) {
      as(token)
          .queryParam("repo", "acme/widgets")
          .get(PATH)
          .then()
          .statusCode(401)
          .header("WWW-Authenticate", startsWith("Bearer"))
          .body("error.details.error_code", equalTo("unauthorized"))
          .body("error.message", equalTo(Authentication.NOT_CONFIGURED));
      as(token)
          .queryParam("repo", "acme/widgets")
          .body(entries("a.md", "one"))
          .put(PATH)
          .then()
          .statusCode(401);
    }
  }

  @Test
  void healthStaysOpen() {
    io.restassured.RestAssured.given().get("/q/health/ready").then().statusCode(200);
  }
}
