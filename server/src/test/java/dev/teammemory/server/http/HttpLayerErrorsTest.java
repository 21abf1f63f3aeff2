package dev.teammemory.server.http;

import static dev.teammemory.server.TestRepositories.READER;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
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

  private record Reply(int status, String head, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  private static Reply send(String target, String extraHeaders) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", RestAssured.port));
      socket.setSoTimeout(30_000);
      String request =
          "GET "
              + target
              + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
              + READER
              + "\r\nConnection: close\r\n"
              + extraHeaders
              + "\r\n";
      socket.getOutputStream().write(request.getBytes(ISO_8859_1));
      socket.getOutputStream().flush();
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          received.write(buffer, 0, n);
        }
      } catch (SocketException reset) {
        // the server may close with our unread request still in its buffer
      }
      String text = received.toString(UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String head = split < 0 ? text : text.substring(0, split);
      String body = split < 0 ? "" : text.substring(split + 4);
      int status = Integer.parseInt(head.substring(9, 12));
      return new Reply(status, head, body);
    }
  }

  private static void assertTeamMemoryEnvelope(Reply reply, int status, String code)
      throws IOException {
    assertThat(reply.status()).as(reply.head()).isEqualTo(status);
    assertThat(reply.head().toLowerCase()).contains("content-type: application/json");
    assertThat(reply.json().path("error").path("details").path("error_code").asText())
        .isEqualTo(code);
    assertThat(reply.json().path("error").path("message").asText()).isNotBlank();
  }

  private static void assertStoreEnvelope(Reply reply, int status, String type) throws IOException {
    assertThat(reply.status()).as(reply.head()).isEqualTo(status);
    assertThat(reply.head().toLowerCase()).contains("content-type: application/json");
    assertThat(reply.json().path("type").asText()).isEqualTo("error");
    assertThat(reply.json().path("error").path("type").asText()).isEqualTo(type);
    assertThat(reply.json().path("error").path("message").asText()).isNotBlank();
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

  /**
   * Vert.x refuses a request line with a bad percent-encoding in its HTTP codec, before any hook
   * Quarkus offers (quarkusio/quarkus#55082): a 400 with an empty body, never a server error.
   */
  @Test
  void aBadPercentEncodingIs400AndNeverAServerError() throws IOException {
    assertThat(send(TEAM_MEMORY + "?repo=o%zz/r", "").status()).isEqualTo(400);
    assertThat(send(TEAM_MEMORY + "%zz?repo=o/r", "").status()).isEqualTo(400);
    assertThat(send("/v1/memory_stores/memstore_%zz", "").status()).isEqualTo(400);
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
