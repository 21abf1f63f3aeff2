package dev.teammemory.server.stores;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WIDGETS_READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.TestRepositories.storeIdOf;
import static io.restassured.RestAssured.given;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.server.Await;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The NDJSON export through its real entry point: the lines of both views, authorisation before the
 * first byte, the bound on exports at once, and the cut of a client that stops reading (the test
 * profile allows two exports and a two-second stall).
 */
@QuarkusTest
class ExportResourceTest {

  private static final Pattern ACTIVE =
      Pattern.compile("(?m)^tmem_exports_active(?:\\{[^}]*\\})? ([0-9.]+)$");

  private static String exportPath(String store) {
    return "/v1/memory_stores/" + store + "/memories/export";
  }

  private static List<JsonNode> lines(String body) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : body.split("\n", -1)) {
      if (!line.isEmpty()) {
        lines.add(ProtocolJson.mapper().readTree(line));
      }
    }
    assertThat(body).endsWith("\n");
    return lines;
  }

  @Test
  void fullExportHasEveryLiveMemoryInPathOrderAndCountsThemLast() throws IOException {
    String repo = fresh("export");
    put(repo, entries("b.md", "bee", "a/x.md", "ex", "gone.md", "soon deleted"));
    as(WRITER)
        .queryParam("repo", repo)
        .queryParam("key", "gone.md")
        .delete(PATH)
        .then()
        .statusCode(200);
    String store = storeIdOf(repo);

    Response response = as(READER).get(exportPath(store));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.contentType()).startsWith("application/x-ndjson");
    List<JsonNode> lines = lines(response.asString());
    assertThat(lines).hasSize(4);
    // The store line carries the repository's version, the one its hashes view names.
    long version =
        as(READER)
            .queryParam("repo", repo)
            .queryParam("view", "hashes")
            .get(PATH)
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getLong("version");
    assertThat(version).isPositive();
    assertThat(lines.get(0).toString())
        .isEqualTo("{\"type\":\"store\",\"version\":" + version + "}");
    JsonNode first = lines.get(1);
    assertThat(first.get("type").asText()).isEqualTo("memory");
    assertThat(first.get("id").asText()).matches("mem_[A-Za-z0-9_-]{1,120}");
    assertThat(first.get("path").asText()).isEqualTo("/a/x.md");
    assertThat(first.get("content").asText()).isEqualTo("ex");
    assertThat(first.get("content_sha256").asText())
        .isEqualTo(Checksums.ofContent("ex").substring("sha256:".length()));
    assertThat(Instant.parse(first.get("updated_at").asText())).isBefore(Instant.now());
    assertThat(first.get("updated_by").toString())
        .isEqualTo("{\"type\":\"user_actor\",\"user_id\":\"alice\"}");
    assertThat(lines.get(2).get("path").asText()).isEqualTo("/b.md");
    assertThat(lines.get(3).toString())
        .isEqualTo("{\"type\":\"complete\",\"memory_count\":2,\"error_count\":0}");
  }

  @Test
  void basicViewStartsWithItsStoreLineAndLeavesContentOut() throws IOException {
    String repo = fresh("export-basic");
    put(repo, entries("notes/é.md", "héllo"));
    String store = storeIdOf(repo);

    List<JsonNode> lines =
        lines(
            as(READER)
                .queryParam("view", "basic")
                .get(exportPath(store))
                .then()
                .statusCode(200)
                .extract()
                .asString());

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0).toString()).isEqualTo("{\"type\":\"store\",\"view\":\"basic\"}");
    JsonNode memory = lines.get(1);
    assertThat(memory.has("content")).isFalse();
    assertThat(memory.get("path").asText()).isEqualTo("/notes/é.md");
    assertThat(memory.get("content_size_bytes").asInt()).isEqualTo("héllo".getBytes(UTF_8).length);
    assertThat(memory.get("content_sha256").asText()).hasSize(64);
    assertThat(memory.get("updated_by").get("user_id").asText()).isEqualTo("alice");
    assertThat(lines.get(2).get("memory_count").asInt()).isEqualTo(1);
  }

  @Test
  void anUnknownStoreOrOneTheCallerCannotReadIsTheSameNotFound() {
    String repo = fresh("export-hidden");
    put(repo, entries("a.md", "secret plans"));
    String store = storeIdOf(repo);

    for (Response response :
        List.of(
            as(READER).get(exportPath("memstore_doesnotexist")),
            // dave reads acme/widgets only
            as(WIDGETS_READER).get(exportPath(store)))) {
      assertThat(response.statusCode()).isEqualTo(404);
      assertThat(response.contentType()).startsWith("application/json");
      assertThat(response.jsonPath().getString("type")).isEqualTo("error");
      assertThat(response.jsonPath().getString("error.type")).isEqualTo("not_found_error");
      assertThat(response.jsonPath().getString("request_id")).isNotBlank();
      assertThat(response.asString()).doesNotContain("secret plans").doesNotContain(repo);
    }
  }

  @Test
  void anUnknownViewIsRefused() {
    String store = storeIdOf(putOne(fresh("export-view")));
    Response response = as(READER).queryParam("view", "everything").get(exportPath(store));
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.jsonPath().getString("error.type")).isEqualTo("invalid_request_error");
  }

  @Test
  void exportsBeyondTheBoundAre429AndAStalledClientIsCut() throws Exception {
    // ~8 MB: far more than socket buffers hold, so a client that reads nothing blocks the export.
    String repo = fresh("export-stall");
    String big = "x".repeat(200_000);
    for (int batch = 0; batch < 8; batch++) {
      List<String> pairs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        pairs.add("big/" + batch + "-" + i + ".md");
        pairs.add(big + batch + i);
      }
      put(repo, entries(pairs.toArray(String[]::new)));
    }
    String store = storeIdOf(repo);

    try (Socket first = stalledExport(store);
        Socket second = stalledExport(store)) {
      awaitActiveExports(2);

      Response refused = as(READER).get(exportPath(store));
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.header("retry-after")).isEqualTo("1");
      assertThat(refused.jsonPath().getString("error.type")).isEqualTo("rate_limit_error");
      assertThat(refused.jsonPath().getString("error.message"))
          .isEqualTo(
              "you already have 2 exports in progress on this server; retry when one has ended");
      // The bound is that caller's: a neighbour's export is served whole meanwhile.
      String neighbours = as(WRITER).queryParam("view", "basic").get(exportPath(store)).asString();
      assertThat(neighbours)
          .endsWith("{\"type\":\"complete\",\"memory_count\":32,\"error_count\":0}\n");

      // Neither client reads, so both exports block until the stall timeout cuts them.
      awaitActiveExports(0);
      assertThat(readToEnd(first)).doesNotContain("\"type\":\"complete\"");
      assertThat(readToEnd(second)).doesNotContain("\"type\":\"complete\"");
    }
    // The slots are free again: a reading client gets the whole export.
    String whole = as(READER).queryParam("view", "basic").get(exportPath(store)).asString();
    assertThat(whole).endsWith("{\"type\":\"complete\",\"memory_count\":32,\"error_count\":0}\n");
  }

  @Test
  void aHeadRequestTakesNoExportSlot() throws Exception {
    String store = storeIdOf(putOne(fresh("export-head")));

    // More HEADs than the bound (two here): each is answered without a body and holds nothing.
    for (int i = 0; i < 3; i++) {
      Response head = as(READER).head(exportPath(store));
      assertThat(head.statusCode()).isEqualTo(200);
      assertThat(head.contentType()).startsWith("application/x-ndjson");
    }

    awaitActiveExports(0);
    String whole = as(READER).queryParam("view", "basic").get(exportPath(store)).asString();
    assertThat(whole).endsWith("{\"type\":\"complete\",\"memory_count\":1,\"error_count\":0}\n");
  }

  private static String putOne(String repo) {
    put(repo, entries("a.md", "a"));
    return repo;
  }

  /** Sends an export request on a socket with a tiny receive buffer and reads nothing yet. */
  private static Socket stalledExport(String store) throws IOException {
    Socket socket = new Socket();
    socket.setReceiveBufferSize(1024);
    socket.connect(new InetSocketAddress("127.0.0.1", RestAssured.port));
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET "
                + exportPath(store)
                + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + READER
                + "\r\n\r\n")
            .getBytes(UTF_8));
    out.flush();
    return socket;
  }

  private static String readToEnd(Socket socket) throws IOException {
    socket.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    byte[] buffer = new byte[65536];
    InputStream in = socket.getInputStream();
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        received.write(buffer, 0, n);
      }
    } catch (SocketException reset) {
      // a connection closed with unread data may end in a reset: that is the cut too
    }
    return received.toString(UTF_8);
  }

  private static void awaitActiveExports(int expected) {
    Await.until(expected + " exports active", () -> activeExports() == expected);
  }

  private static int activeExports() {
    Matcher matcher = ACTIVE.matcher(given().get("/q/metrics").asString());
    return matcher.find() ? (int) Double.parseDouble(matcher.group(1)) : -1;
  }
}
