package dev.teammemory.protocol.suite;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.teammemory.protocol.ErrorCodes;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Malformed requests are refused with the protocol's error envelope and leave the repository
 * byte-identical (PROTOCOL.md "PUT": the body is {@code {"entries": {…}}} and nothing else).
 */
class BadInputTest {

  private static ProtocolServer server;

  @BeforeAll
  static void connect() {
    server = ProtocolServer.shared();
  }

  static Stream<Arguments> malformedBodies() {
    return Stream.of(
        arguments(
            Named.of("truncated JSON", "{\"entries\":{\"a.md\":\"x\""), ErrorCodes.INVALID_JSON),
        arguments(Named.of("not JSON", "entries=a.md"), ErrorCodes.INVALID_JSON),
        arguments(Named.of("empty body", ""), ErrorCodes.INVALID_JSON),
        arguments(
            Named.of("two JSON values", "{\"entries\":{}} {\"entries\":{}}"),
            ErrorCodes.INVALID_JSON),
        arguments(Named.of("an array", "[{\"entries\":{}}]"), ErrorCodes.INVALID_BODY),
        arguments(Named.of("a string", "\"entries\""), ErrorCodes.INVALID_BODY),
        arguments(Named.of("null", "null"), ErrorCodes.INVALID_BODY),
        arguments(Named.of("no entries field", "{}"), ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("another top-level field", "{\"entries\":{\"a.md\":\"x\"},\"force\":true}"),
            ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("entries is an array", "{\"entries\":[\"a.md\"]}"), ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("entries is a string", "{\"entries\":\"a.md\"}"), ErrorCodes.INVALID_BODY),
        arguments(Named.of("entries is null", "{\"entries\":null}"), ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("a number value", "{\"entries\":{\"a.md\":1}}"), ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("a null value", "{\"entries\":{\"a.md\":null}}"), ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("a boolean value", "{\"entries\":{\"a.md\":true}}"), ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("an object value", "{\"entries\":{\"a.md\":{\"text\":\"x\"}}}"),
            ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("an array value", "{\"entries\":{\"a.md\":[\"x\"]}}"),
            ErrorCodes.INVALID_BODY),
        arguments(
            Named.of("a NUL in the content", "{\"entries\":{\"a.md\":\"x\\u0000y\"}}"),
            ErrorCodes.INVALID_BODY),
        arguments(
            Named.of(
                "a bad value beside a good one", "{\"entries\":{\"a.md\":\"fine\",\"b.md\":2}}"),
            ErrorCodes.INVALID_BODY));
  }

  @ParameterizedTest
  @MethodSource("malformedBodies")
  void aMalformedBodyIs400AndWritesNothing(String body, String errorCode) {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "original"));
    ProtocolServer.RepositoryState before = server.state(repo);

    server.memory("PUT", repo).json(body).send().expectError(400, errorCode);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @ParameterizedTest
  @MethodSource("malformedBodies")
  void aMalformedBodyDoesNotCreateANeverWrittenRepository(String body, String errorCode) {
    String repo = server.newRepository();

    server.memory("PUT", repo).json(body).send().expectError(400, errorCode);

    server.get(repo).expectError(404, ErrorCodes.NOT_FOUND);
  }

  static Stream<Named<String>> otherContentTypes() {
    return Stream.of(
        Named.of("text/plain", "text/plain"),
        Named.of("form", "application/x-www-form-urlencoded"),
        Named.of("no Content-Type", null));
  }

  @ParameterizedTest
  @MethodSource("otherContentTypes")
  void aBodyThatIsNotDeclaredJsonIs415AndWritesNothing(String contentType) {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "original"));
    ProtocolServer.RepositoryState before = server.state(repo);

    server
        .memory("PUT", repo)
        .body("{\"entries\":{\"a.md\":\"changed\"}}".getBytes(UTF_8), contentType)
        .send()
        .expectError(415, ErrorCodes.UNSUPPORTED_MEDIA_TYPE);

    assertThat(server.state(repo)).isEqualTo(before);
  }

  @Test
  void jsonWithACharsetParameterIsAccepted() {
    String repo = server.newRepository();

    server
        .memory("PUT", repo)
        .body(
            "{\"entries\":{\"a.md\":\"caf\u00e9\"}}".getBytes(UTF_8),
            "application/json; charset=utf-8")
        .send()
        .expectStatus(200);

    assertThat(Reply.strings(server.get(repo).json().path("content").path("entries")))
        .containsExactly(Map.entry("a.md", "caf\u00e9"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "acme",
        "acme/",
        "/widgets",
        "acme/wid/gets",
        "acme/wid gets",
        "ac me/widgets",
        "acme/..",
        "../widgets",
        "acme\\widgets",
        "acme/widgets?x"
      })
  void aRepoThatIsNotAnOwnerSlashNameIs400OnEveryMethod(String repo) {
    server.memory("GET", repo).send().expectError(400, ErrorCodes.INVALID_REPO);
    server
        .memory("GET", repo)
        .query("view", "hashes")
        .send()
        .expectError(400, ErrorCodes.INVALID_REPO);
    server.put(repo, Map.of("a.md", "1")).expectError(400, ErrorCodes.INVALID_REPO);
  }

  @Test
  void aMissingRepoIs400() {
    server.call("GET", ProtocolServer.MEMORY_PATH).send().expectError(400, ErrorCodes.INVALID_REPO);
    server
        .call("PUT", ProtocolServer.MEMORY_PATH)
        .json("{\"entries\":{\"a.md\":\"1\"}}")
        .send()
        .expectError(400, ErrorCodes.INVALID_REPO);
  }

  @Test
  void anEmptyRepoIs400() {
    server.memory("GET", "").send().expectError(400, ErrorCodes.INVALID_REPO);
  }

  @Test
  void anUnknownViewIs400() {
    String repo = server.newRepository();
    server.write(repo, Map.of("a.md", "1"));

    server
        .memory("GET", repo)
        .query("view", "full")
        .send()
        .expectError(400, ErrorCodes.INVALID_VIEW);
  }
}
