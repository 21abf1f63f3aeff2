package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.stores.StoreApi.STORES;
import static dev.teammemory.server.stores.StoreApi.createMemory;
import static dev.teammemory.server.stores.StoreApi.memories;
import static dev.teammemory.server.stores.StoreApi.storeOf;
import static dev.teammemory.server.stores.StoreApi.v1;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Memory Stores API keeps the one rule for storable text ({@code UnicodeText}): a NUL or an
 * unpaired surrogate in any text it keeps is a {@code 400} that names the field, never a {@code
 * 500}, never a row, and never a size counted short.
 */
@QuarkusTest
class StorableTextTest {

  /** JSON escapes, so that the bodies carry exactly these characters. */
  private static final String NUL = "\\u0000";

  private static final String SURROGATE = "\\ud800";

  @ParameterizedTest(name = "{0} content")
  @CsvSource({
    "NUL, 'content holds a NUL character (U+0000), which the server cannot store'",
    "SURROGATE, 'content holds an unpaired UTF-16 surrogate, which is not Unicode text'"
  })
  void contentThatIsNotStorableTextIsRefusedOnCreateAndUpdate(String kind, String message) {
    String store = storeOf(fresh("text-content"));
    String bad = "NUL".equals(kind) ? NUL : SURROGATE;
    String id = createMemory(store, "/kept.md", "kept\n").getString("id");

    assertRefused(
        v1(WRITER)
            .body("{\"path\":\"/bad.md\",\"content\":\"" + "x".repeat(90_000) + bad + "\"}")
            .post(memories(store))
            .then()
            .extract()
            .jsonPath(),
        message);
    assertRefused(
        v1(WRITER)
            .body("{\"content\":\"a" + bad + "b\"}")
            .post(memories(store) + "/" + id)
            .then()
            .extract()
            .jsonPath(),
        message);

    JsonPath listed =
        v1(WRITER)
            .queryParam("view", "full")
            .get(memories(store))
            .then()
            .statusCode(200)
            .extract()
            .jsonPath();
    assertThat(listed.getList("data.path", String.class)).containsExactly("/kept.md");
    assertThat(listed.getString("data[0].content")).isEqualTo("kept\n");
    assertThat(listed.getInt("data[0].content_size_bytes")).isEqualTo(5);
  }

  @ParameterizedTest(name = "a path with a {0}")
  @CsvSource({
    "NUL, 'path must not contain control or format characters'",
    "SURROGATE, 'path must be Unicode text, without unpaired UTF-16 surrogates'"
  })
  void aPathThatIsNotStorableTextIsRefused(String kind, String message) {
    String store = storeOf(fresh("text-path"));
    String bad = "NUL".equals(kind) ? NUL : SURROGATE;

    assertRefused(
        v1(WRITER)
            .body("{\"path\":\"/x" + bad + ".md\",\"content\":\"x\"}")
            .post(memories(store))
            .then()
            .extract()
            .jsonPath(),
        message);
    assertThat(
            v1(WRITER)
                .get(memories(store))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("data"))
        .isEmpty();
  }

  @ParameterizedTest(name = "{0} in a store''s {1}")
  @CsvSource({
    "NUL, name",
    "SURROGATE, name",
    "NUL, description",
    "SURROGATE, description",
    "NUL, metadata value",
    "SURROGATE, metadata value",
    "NUL, metadata key"
  })
  void aStoresTextThatIsNotStorableIsRefused(String kind, String field) {
    String repo = fresh("text-store");
    String bad = "NUL".equals(kind) ? NUL : SURROGATE;
    String body =
        switch (field) {
          case "name" -> "{\"name\":\"n" + bad + "\",\"metadata\":{\"repo\":\"" + repo + "\"}}";
          case "description" -> "{\"name\":\"" + repo + "\",\"description\":\"d" + bad + "\"}";
          case "metadata value" ->
              "{\"name\":\"" + repo + "\",\"metadata\":{\"k\":\"v" + bad + "\"}}";
          default -> "{\"name\":\"" + repo + "\",\"metadata\":{\"k" + bad + "\":\"v\"}}";
        };

    JsonPath refused =
        v1(WRITER).body(body).post(STORES).then().statusCode(400).extract().jsonPath();

    assertThat(refused.getString("error.type")).isEqualTo("invalid_request_error");
    assertThat(refused.getString("error.message"))
        .contains("NUL".equals(kind) ? "NUL character" : "unpaired UTF-16 surrogate");
    v1(WRITER)
        .queryParam("limit", 100)
        .get(STORES)
        .then()
        .statusCode(200)
        .body("data.name", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem(repo)));
  }

  private static void assertRefused(JsonPath refused, String message) {
    assertThat(refused.getString("type")).isEqualTo("error");
    assertThat(refused.getString("error.type")).isEqualTo("invalid_request_error");
    assertThat(refused.getString("error.message")).isEqualTo(message);
  }
}
