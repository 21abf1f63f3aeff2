package dev.teammemory.protocol.suite;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ProtocolJson;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import okhttp3.Headers;
import okio.ByteString;

/**
 * One answer of the server under test. Its assertion helpers put the request and the start of the
 * response in every failure message, so a failed check says what the server did.
 */
record Reply(String request, int status, Headers headers, ByteString body) {

  private static final int SHOWN_BODY_CHARACTERS = 600;

  Reply {
    requireNonNull(request, "request is null");
    requireNonNull(headers, "headers is null");
    requireNonNull(body, "body is null");
  }

  String header(String name) {
    return headers.get(name);
  }

  String text() {
    return body.string(UTF_8);
  }

  /** The body as JSON; a body that is not JSON fails the test with what it was. */
  JsonNode json() {
    try {
      JsonNode node = ProtocolJson.mapper().readTree(body.toByteArray());
      if (node == null || node.isMissingNode()) {
        throw new AssertionError("expected a JSON body: " + describe());
      }
      return node;
    } catch (IOException e) {
      throw new AssertionError("expected a JSON body: " + describe(), e);
    }
  }

  Optional<String> errorCode() {
    try {
      JsonNode code =
          ProtocolJson.mapper()
              .readTree(body.toByteArray())
              .path("error")
              .path("details")
              .path("error_code");
      return code.isTextual() ? Optional.of(code.textValue()) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** A JSON object of strings, such as {@code entries} or {@code entryChecksums}, as a map. */
  static Map<String, String> strings(JsonNode object) {
    assertThat(object.isObject()).as("expected a JSON object but got %s", object).isTrue();
    Map<String, String> map = new TreeMap<>();
    object
        .properties()
        .forEach(
            field -> {
              assertThat(field.getValue().isTextual())
                  .as("value of %s is not a string: %s", field.getKey(), field.getValue())
                  .isTrue();
              map.put(field.getKey(), field.getValue().textValue());
            });
    return map;
  }

  Reply expectStatus(int expected) {
    assertThat(status).as(this::describe).isEqualTo(expected);
    return this;
  }

  /**
   * The protocol's error envelope: this status, {@code Content-Type: application/json}, a non-blank
   * {@code error.message} and {@code error.details.error_code} equal to {@code code}.
   */
  JsonNode expectError(int expectedStatus, String code) {
    expectStatus(expectedStatus);
    assertThat(header("Content-Type")).as(this::describe).startsWith("application/json");
    JsonNode error = json().path("error");
    assertThat(error.path("details").path("error_code").textValue())
        .as(this::describe)
        .isEqualTo(code);
    assertThat(error.path("message").isTextual() && !error.path("message").textValue().isBlank())
        .as("error.message is a non-blank string: " + describe())
        .isTrue();
    return error;
  }

  /** The request, the status and the start of the body, for failure messages. */
  String describe() {
    String text = text();
    String shown =
        text.length() > SHOWN_BODY_CHARACTERS
            ? text.substring(0, SHOWN_BODY_CHARACTERS) + "… (" + body.size() + " bytes)"
            : text;
    return request + " answered " + status + " " + shown;
  }
}
