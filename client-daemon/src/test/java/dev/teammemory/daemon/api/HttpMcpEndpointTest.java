package dev.teammemory.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.testing.OfflineMachine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stateless Streamable HTTP endpoint on a real JDK server, as the local API serves it. */
class HttpMcpEndpointTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  private HttpServer server;
  private HttpMcpEndpoint endpoint;
  private Path project;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws IOException {
    Path memory = Files.createDirectories(home.resolve("memory/team"));
    Files.writeString(
        memory.resolve("testing-policy.md"),
        "---\nname: testing-policy\ndescription: real database\ntype: feedback\n---\n\nReal.\n");
    project = Files.createDirectories(home.resolve("shop"));
    Environment environment = OfflineMachine.environment(home, home.resolve("memory"), home);
    endpoint =
        new HttpMcpEndpoint(
            new McpTools(environment, Clock.systemUTC(), McpTools.Binding.PER_CALL), "test");
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    server.createContext(
        HttpMcpEndpoint.PATH,
        exchange -> {
          try (exchange) {
            endpoint.handle(exchange, server.getAddress().getPort());
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    endpoint.shutDown();
  }

  private HttpResponse<String> post(String body, Optional<String> origin) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    origin.ifPresent(value -> request.header("Origin", value));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void initializeNegotiatesAndToolsTakeTheProject() throws Exception {
    HttpResponse<String> initialized =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"1999-01-01\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
            Optional.empty());
    assertThat(initialized.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(initialized.body()).path("result").path("protocolVersion").asText())
        .isNotEqualTo("1999-01-01");

    JsonNode tools =
        JSON.readTree(
                post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", Optional.empty())
                    .body())
            .path("result")
            .path("tools");
    for (JsonNode tool : tools) {
      assertThat(tool.path("inputSchema").path("required").toString())
          .as(tool.path("name").asText())
          .contains("\"project\"");
    }

    JsonNode withoutProject =
        JSON.readTree(
                post(
                        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"memory_list\",\"arguments\":{}}}",
                        Optional.empty())
                    .body())
            .path("result");
    assertThat(withoutProject.path("isError").asBoolean()).isTrue();
    assertThat(withoutProject.path("content").get(0).path("text").asText())
        .startsWith("project is required");

    JsonNode listed =
        JSON.readTree(
                post(
                        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"memory_list\",\"arguments\":{\"project\":\""
                            + project
                            + "\"}}}",
                        Optional.empty())
                    .body())
            .path("result");
    assertThat(listed.path("content").get(0).path("text").asText())
        .contains("team/testing-policy.md");
  }

  @Test
  void aNotificationIsAcceptedWithoutABody() throws Exception {
    assertThat(
            post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", Optional.empty())
                .statusCode())
        .isEqualTo(202);
  }

  @Test
  void aWebPagesOriginIsRefused() throws Exception {
    HttpResponse<String> refused =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
            Optional.of("https://evil.example"));

    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(refused.body()).path("message").asText())
        .isEqualTo(
            "requests from web pages are refused: Origin https://evil.example is not this API's");
  }

  @Test
  void aForeignHostIsRefused() throws Exception {
    String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    try (Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), server.getAddress().getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /mcp HTTP/1.1\r\nHost: rebound.example:80\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + body.length()
                  + "\r\nConnection: close\r\n\r\n"
                  + body)
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .startsWith("HTTP/1.1 403")
          .contains("the Host header must be 127.0.0.1:");
    }
  }

  @Test
  void anOriginOnTheApisOwnAddressIsAllowed() {
    assertThat(
            HttpMcpEndpoint.refusal(
                Optional.of("localhost:4100"), Optional.of("http://127.0.0.1:4100"), 4100))
        .isEmpty();
    assertThat(HttpMcpEndpoint.refusal(Optional.of("127.0.0.1:4100"), Optional.empty(), 4100))
        .isEmpty();
    assertThat(
            HttpMcpEndpoint.refusal(
                Optional.of("127.0.0.1:4100"), Optional.of("http://127.0.0.1:4101"), 4100))
        .isPresent();
  }
}
