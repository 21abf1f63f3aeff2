package dev.teammemory.server;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** Shared pieces of the server's HTTP tests: the test tokens and fresh repository names. */
public final class TestRepositories {

  /** alice: write access to every repository. */
  public static final String WRITER = "writer-token";

  /** bob: read access to every repository. */
  public static final String READER = "reader-token";

  /** carol: write access to acme/* only. */
  public static final String ACME_WRITER = "acme-token";

  /** dave: read access to acme/widgets, write access to acme/gadgets, nothing else. */
  public static final String WIDGETS_READER = "widgets-token";

  public static final String PATH = "/api/claude_code/team_memory";

  private TestRepositories() {}

  /** A repository no other test writes: {@code test-owner/<prefix>-<random>}. */
  public static String fresh(String prefix) {
    return "test-owner/" + prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The id of the repository's memory store, as a reader looks it up. */
  public static String storeIdOf(String repo) {
    return as(READER)
        .queryParam("repo", repo)
        .get(PATH + "/store")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("id");
  }

  /** A request with the bearer token and the JSON content type. */
  public static RequestSpecification as(String token) {
    return given().auth().oauth2(token).contentType(ContentType.JSON);
  }

  /** A PUT body holding {@code keysAndContents} (key, content, key, content, …). */
  public static Map<String, Object> entries(String... keysAndContents) {
    Map<String, String> entries = new LinkedHashMap<>();
    for (int i = 0; i < keysAndContents.length; i += 2) {
      entries.put(keysAndContents[i], keysAndContents[i + 1]);
    }
    return Map.of("entries", entries);
  }

  /** PUTs as the writer and expects 200. */
  public static ExtractableResponse<Response> put(String repo, Object body) {
    return as(WRITER)
        .queryParam("repo", repo)
        .body(body)
        .put(PATH)
        .then()
        .statusCode(200)
        .extract();
  }

  /** The hashes view as the writer, expecting 200. */
  public static ExtractableResponse<Response> hashes(String repo) {
    return as(WRITER)
        .queryParam("repo", repo)
        .queryParam("view", "hashes")
        .get(PATH)
        .then()
        .statusCode(200)
        .extract();
  }
}
