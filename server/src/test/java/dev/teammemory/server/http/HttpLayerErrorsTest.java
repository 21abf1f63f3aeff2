package dev.teammemory.server.http;

import static dev.teammemory.server.TestRepositories.READER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.server.ServerCalls;
import dev.teammemory.server.ServerCalls.RawReply;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * What the HTTP layer refuses before any resource runs (a long request line, large headers, a bad
 * percent-encoding) is answered in the JSON envelope of the API the path belongs to, as every other
 * refusal; sent on a raw socket, since a client library would refuse to send most of these.
 */
@QuarkusTest
class HttpLayerErrorsTest {

  private static final String TEAM_MEMORY = "/api/claude_code/team_memory";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static RawReply send(String target, String extraHeaders) throws IOException {
    return ServerCalls.rawGet(
        URI.create("http://127.0.0.1:" + RestAssured.port), READER, target, extraHeaders);
  }

  private static void assertTeamMemoryEnvelope(RawReply reply, int status, String code)
      throws IOException {
    assertThat(reply.status()).as(reply.head()).isEqualTo(status);
    assertThat(reply.head().toLowerCase()).contains("content-type: application/json");
    assertThat(
            JSON.readTree(reply.body()).path("error").path("details").path("error_code").asText())
        .isEqualTo(code);
    assertThat(JSON.readTree(reply.body()).path("error").path("message").asText()).isNotBlank();
  }

  private static void assertStoreEnvelope(RawReply reply, int status, String type)
      throws IOException {
    assertThat(reply.status()).as(reply.head()).isEqualTo(status);
    assertThat(reply.head().toLowerCase()).contains("content-type: application/json");
    assertThat(JSON.readTree(reply.body()).path("type").asText()).isEqualTo("error");
    assertThat(JSON.readTree(reply.body()).path("error").path("type").asText()).isEqualTo(type);
    assertThat(JSON.readTree(reply.body()).path("error").path("message").asText()).isNotBlank();
  }

  @Test
  void aLongRequestLineIs414InTheEnvelopeOfItsApi() throws IOException {
    String longRepo = "o/" + "r".repeat(20_000);
    assertTeamMemoryEnvelope(send(TEAM_MEMORY + "?repo=" + longRepo, ""), 414, "request_too_large");
    assertStoreEnvelope(
        send("/v1/memory_stores?page=" + "p".repeat(20_000), ""), 414, "invalid_request_error");
  }

  @Test
  void largeHeadersAre431InTheEnvelopeOfItsApi() throws IOException {
    String big = "X-Padding: " + "p".repeat(30_000) + "\r\n";
    assertTeamMemoryEnvelope(send(TEAM_MEMORY + "?repo=o/r", big), 431, "request_too_large");
    assertStoreEnvelope(send("/v1/memory_stores", big), 431, "invalid_request_error");
  }

  @Test
  void aBadPercentEncodingIs400InTheEnvelopeOfItsApi() throws IOException {
    assertTeamMemoryEnvelope(send(TEAM_MEMORY + "?repo=o%zz/r", ""), 400, "invalid_parameter");
    assertTeamMemoryEnvelope(send(TEAM_MEMORY + "%zz?repo=o/r", ""), 400, "invalid_parameter");
    assertTeamMemoryEnvelope(send(TEAM_MEMORY + "?repo=o/r&page=%", ""), 400, "invalid_parameter");
    assertStoreEnvelope(send("/v1/memory_stores/memstore_%zz", ""), 400, "invalid_request_error");
    assertStoreEnvelope(send("/v1/memory_stores?page=%g1", ""), 400, "invalid_request_error");
  }

  @Test
  void aNulInAnIdOrAPageCursorIsRefusedInItsEnvelopeNeverA500() throws IOException {
    assertStoreEnvelope(
        send("/v1/memory_stores/memstore_x/memories/mem_%00", ""), 404, "not_found_error");
    assertStoreEnvelope(send("/v1/memory_stores/memstore_%00", ""), 404, "not_found_error");
    assertTeamMemoryEnvelope(
        send(TEAM_MEMORY + "/history?repo=test-owner/r&key=a.md&page=v1%00", ""),
        400,
        "invalid_parameter");
  }
}
