package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.WRITER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.Map;

/** Shared pieces of the Memory Stores API tests: requests as the SDKs send them. */
public final class StoreApi {

  public static final String STORES = "/v1/memory_stores";

  private StoreApi() {}

  /** A request with the key as a bearer token, the SDK's headers and {@code beta=true}. */
  public static RequestSpecification v1(String token) {
    return given()
        .auth()
        .oauth2(token)
        .header("anthropic-version", "2026-10-21")
        .header("anthropic-beta", "agent-memory-2026-07-22")
        .queryParam("beta", "true")
        .contentType(ContentType.JSON);
  }

  /** Creates (or finds) the store of {@code repo} as the writer; its id. */
  public static String storeOf(String repo) {
    return v1(WRITER)
        .body(Map.of("name", repo, "metadata", Map.of("repo", repo)))
        .post(STORES)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getString("id");
  }

  public static String memories(String storeId) {
    return STORES + "/" + storeId + "/memories";
  }

  static String versions(String storeId) {
    return STORES + "/" + storeId + "/memory_versions";
  }

  /** Creates a memory as the writer, expecting 200; the answer. */
  static JsonPath createMemory(String storeId, String path, String content) {
    return v1(WRITER)
        .body(Map.of("path", path, "content", content))
        .post(memories(storeId))
        .then()
        .statusCode(200)
        .extract()
        .jsonPath();
  }

  /** Asserts a {@code /v1} error: status, envelope and type; returns the error member. */
  static JsonPath assertError(ExtractableResponse<Response> response, int status, String type) {
    assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(status);
    assertThat(response.contentType()).startsWith("application/json");
    JsonPath body = response.jsonPath();
    assertThat(body.getString("type")).isEqualTo("error");
    assertThat(body.getString("error.type")).isEqualTo(type);
    assertThat(body.getString("error.message")).isNotBlank();
    assertThat(body.getString("request_id")).isNotBlank();
    return body;
  }
}
