package dev.teammemory.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.testing.OfflineMachine;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local API keeps answering while callers hold connections open half-way through a request. */
class LocalApiConnectionsTest {

  @TempDir Path home;

  private LocalApi api;
  private final List<Socket> halfOpen = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    Environment environment =
        OfflineMachine.environment(home, Files.createDirectories(home.resolve("memory")), home);
    api = LocalApi.serve(environment, Clock.systemUTC(), 0);
  }

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : halfOpen) {
      socket.close();
    }
    api.close();
  }

  @Test
  void fiveConnectionsStuckInTheirHeadersDoNotStallARequest() throws Exception {
    for (int i = 0; i < 5; i++) {
      Socket socket = new Socket(InetAddress.getLoopbackAddress(), api.port());
      OutputStream out = socket.getOutputStream();
      // A request line and one header, then nothing: the server is left reading the headers.
      out.write(
          "POST /v1/recall HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      halfOpen.add(socket);
    }

    // Answered at all within the deadline is the point: before, two stuck readers took both of
    // the API's threads and every later request waited until they gave up.
    assertARequestIsAnswered();
  }

  @Test
  void threeIdleConnectionsAndThreeStuckInTheirBodiesDoNotStallARequest() throws Exception {
    for (int i = 0; i < 3; i++) {
      // Connected, and not a byte sent.
      halfOpen.add(new Socket(InetAddress.getLoopbackAddress(), api.port()));
    }
    String token = Files.readString(ApiToken.file(OfflineMachine.stateHome(home))).strip();
    for (int i = 0; i < 3; i++) {
      Socket socket = new Socket(InetAddress.getLoopbackAddress(), api.port());
      OutputStream out = socket.getOutputStream();
      // Whole headers of an authorised hook call promising 100 bytes of body, then 2 of them:
      // its handler is left reading the body.
      out.write(
          ("POST /v1/hooks/session-start HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                  + token
                  + "\r\nContent-Length: 100\r\n\r\n{\"")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      halfOpen.add(socket);
    }

    assertARequestIsAnswered();
  }

  /** A request without a token is answered (401) within the deadline, not left waiting. */
  private void assertARequestIsAnswered() throws Exception {
    HttpResponse<String> answered =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(api.url() + "/v1/recall"))
                    .timeout(Duration.ofSeconds(15))
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(answered.statusCode()).isEqualTo(401);
  }
}
