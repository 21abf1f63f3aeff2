package dev.teammemory.server.memory;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.hashes;
import static dev.teammemory.server.TestRepositories.put;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every kind of bad PUT gets its status and error_code, and leaves the repository as it was. */
@QuarkusTest
class BadInputTest {

  private String repo;
  private JsonPath before;

  @BeforeEach
  void writeOneVersion() {
    repo = fresh("bad");
    put(repo, entries("a.md", "one"));
    before = hashes(repo).jsonPath();
  }

  private ValidatableResponse putRaw(String contentType, String body) {
    var request = given().auth().oauth2(WRITER).queryParam("repo", repo);
    if (contentType != null) {
      request = request.contentType(contentType);
    }
    return request.body(body.getBytes(StandardCharsets.UTF_8)).put(PATH).then();
  }

  private ValidatableResponse putJson(String body) {
    return putRaw("application/json", body);
  }

  private void assertUntouched() {
    JsonPath after = hashes(repo).jsonPath();
    assertThat(after.getLong("version")).isEqualTo(before.getLong("version"));
    assertThat(after.getString("checksum")).isEqualTo(before.getString("checksum"));
    assertThat(after.getMap("entryChecksums")).isEqualTo(before.getMap("entryChecksums"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"entries\": {\"b.md\": \"two\"",
        "{entries: {}}",
        "{\"entries\": {\"b.md\": \"two\"}} trailing",
        "",
        "{\"entries\": {\"b.md\": \"two\", \"b.md\": \"three\"}}"
      })
  void malformedJsonReturns400InvalidJson(String body) {
    putJson(body)
        .statusCode(400)
        .contentType("application/json")
        .body("error.details.error_code", equalTo("invalid_json"))
        .body("error.message", org.hamcrest.Matchers.startsWith("the body"));
    assertUntouched();
  }

  @Test
  void invalidUtf8ReturnsInvalidJson() {
    given()
        .auth()
        .oauth2(WRITER)
        .queryParam("repo", repo)
        .contentType("application/json")
        .body(new byte[] {'{', '"', 'e', (byte) 0xC3, '"', ':', '1', '}'})
        .put(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_json"));
    assertUntouched();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[]",
        "\"entries\"",
        "{}",
        "{\"entries\": {}, \"extra\": 1}",
        "{\"entries\": []}",
        "{\"entries\": \"a.md\"}",
        "{\"entries\": null}"
      })
  void bodyThatIsNotAnEntriesObjectReturns400InvalidBody(String body) {
    putJson(body)
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_body"))
        .body("error.details.key", nullValue());
    assertUntouched();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "null", "true", "[\"x\"]", "{\"x\": \"y\"}"})
  void nonStringValueReturns400InvalidBodyNamingTheKey(String value) {
    putJson("{\"entries\": {\"b.md\": \"fine\", \"c.md\": " + value + "}}")
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_body"))
        .body("error.details.key", equalTo("c.md"));
    assertUntouched();
  }

  @Test
  void contentWithANulCharacterReturns400InvalidBodyNamingTheKey() {
    putJson("{\"entries\": {\"b.md\": \"nul \\u0000 here\"}}")
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_body"))
        .body("error.details.key", equalTo("b.md"))
        .body("error.message", org.hamcrest.Matchers.containsString("NUL"));
    assertUntouched();
  }

  @Test
  void contentWithAnUnpairedSurrogateReturns400InvalidBody() {
    putJson("{\"entries\": {\"b.md\": \"half \\ud800 a pair\"}}")
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_body"))
        .body("error.details.key", equalTo("b.md"));
    assertUntouched();
  }

  @ParameterizedTest
  @ValueSource(strings = {"text/plain", "text/csv", "application/jsonx", "application/xml"})
  void wrongContentTypeReturns415(String contentType) {
    putRaw(contentType, "{\"entries\": {\"b.md\": \"two\"}}")
        .statusCode(415)
        .contentType("application/json")
        .body("error.details.error_code", equalTo("unsupported_media_type"));
    assertUntouched();
  }

  @Test
  void missingContentTypeReturns415() {
    putRaw(null, "{\"entries\": {\"b.md\": \"two\"}}")
        .statusCode(415)
        .body("error.details.error_code", equalTo("unsupported_media_type"));
    assertUntouched();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/abs.md",
        "a//b.md",
        "a/./b.md",
        "a/../b.md",
        "..",
        "back\\\\slash.md",
        "tab\\there.md",
        "%2e%2e/x.md",
        "a%2fb.md",
        "full\\uff0fwidth.md",
        "\\uff0e\\uff0e/x.md",
        "trailing/"
      })
  void badKeyReturns400InvalidKeyNamingTheKey(String jsonKey) {
    putJson("{\"entries\": {\"b.md\": \"two\", \"" + jsonKey + "\": \"x\"}}")
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_key"))
        .body("error.details.key", org.hamcrest.Matchers.notNullValue())
        .body("error.message", org.hamcrest.Matchers.startsWith("invalid key: key "));
    assertUntouched();
  }

  @Test
  void emptyAndOverlongKeysReturn400InvalidKey() {
    putJson("{\"entries\": {\"\": \"x\"}}")
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_key"))
        .body("error.message", equalTo("invalid key: key is empty"));
    putJson("{\"entries\": {\"" + "k".repeat(513) + "\": \"x\"}}")
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_key"))
        .body("error.message", equalTo("invalid key: key is longer than 512 UTF-8 bytes"));
    assertUntouched();
  }

  @Test
  void keyWithAMalformedPercentEscapeIsTakenLiterally() {
    putJson("{\"entries\": {\"100%.md\": \"x\"}}").statusCode(200);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "noslash",
        "/name",
        "owner/",
        "-owner/name",
        "owner/name/extra",
        "owner/.",
        "owner/..",
        "own er/name",
        "owner/na me",
        "0123456789012345678901234567890123456789/name"
      })
  void badRepoSlugReturns400InvalidRepo(String slug) {
    given()
        .auth()
        .oauth2(WRITER)
        .contentType("application/json")
        .queryParam("repo", slug)
        .body("{\"entries\": {\"b.md\": \"two\"}}")
        .put(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_repo"));
    given()
        .auth()
        .oauth2(WRITER)
        .queryParam("repo", slug)
        .get(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_repo"));
  }

  @Test
  void missingRepoReturns400InvalidRepo() {
    given()
        .auth()
        .oauth2(WRITER)
        .get(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_repo"));
  }

  @Test
  void longestValidSlugIsAccepted() {
    String slug = "o".repeat(39) + "/" + "n".repeat(100);
    given().auth().oauth2(WRITER).queryParam("repo", slug).get(PATH).then().statusCode(404);
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "HASHES", "entries", " hashes"})
  void unknownViewReturns400InvalidView(String view) {
    given()
        .auth()
        .oauth2(WRITER)
        .queryParam("repo", repo)
        .queryParam("view", view)
        .get(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_view"));
  }

  @Test
  void errorsAreCheckedInTheProtocolsOrder() {
    // A body that is wrong in every way: the earliest check answers.
    String everythingWrong = "{not json";
    given()
        .queryParam("repo", "bad slug")
        .contentType("text/plain")
        .body(everythingWrong)
        .put(PATH)
        .then()
        .statusCode(401);
    given()
        .auth()
        .oauth2(WRITER)
        .queryParam("repo", "bad slug")
        .contentType("text/plain")
        .body(everythingWrong)
        .put(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_repo"));
    given()
        .auth()
        .oauth2(dev.teammemory.server.TestRepositories.READER)
        .queryParam("repo", repo)
        .contentType("text/plain")
        .body(everythingWrong)
        .put(PATH)
        .then()
        .statusCode(403);
    putRaw("text/plain", everythingWrong).statusCode(415);
    putJson(everythingWrong)
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_json"));
    // A bad key and a stale If-Match: the key is checked first.
    given()
        .auth()
        .oauth2(WRITER)
        .queryParam("repo", repo)
        .contentType("application/json")
        .header("If-Match", "\"sha256:stale\"")
        .body("{\"entries\": {\"/bad\": \"x\"}}")
        .put(PATH)
        .then()
        .statusCode(400)
        .body("error.details.error_code", equalTo("invalid_key"));
    assertUntouched();
  }
}
