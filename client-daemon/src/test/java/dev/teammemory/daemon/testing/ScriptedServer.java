package dev.teammemory.daemon.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.protocol.Checksums;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/** A MockWebServer that answers with a function of the request and keeps every request. */
public final class ScriptedServer implements AutoCloseable {

  private final MockWebServer server = new MockWebServer();
  private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();

  public ScriptedServer(Function<RecordedRequest, MockResponse> answer) throws IOException {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            requests.add(request);
            return answer.apply(request);
          }
        });
    server.start();
  }

  public String url() {
    String url = server.url("/").toString();
    return url.substring(0, url.length() - 1);
  }

  public List<RecordedRequest> requests() {
    return List.copyOf(requests);
  }

  public List<RecordedRequest> puts() {
    return requests.stream().filter(request -> request.getMethod().equals("PUT")).toList();
  }

  /**
   * The body of a full GET of {@code acme/widgets} holding {@code entries}, with their checksums
   * and the repository checksum computed as the protocol defines them.
   */
  public static String repositoryBody(int version, Map<String, String> entries) {
    Map<String, String> checksums = new LinkedHashMap<>();
    entries.forEach((key, value) -> checksums.put(key, Checksums.ofContent(value)));
    try {
      return new ObjectMapper()
          .writeValueAsString(
              Map.of(
                  "organizationId",
                  "acme",
                  "repo",
                  "acme/widgets",
                  "version",
                  version,
                  "lastModified",
                  "2026-11-21T10:15:30.123Z",
                  "checksum",
                  Checksums.ofRepository(checksums),
                  "content",
                  Map.of("entries", entries, "entryChecksums", checksums)));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static MockResponse json(int status, String body) {
    return new MockResponse.Builder()
        .code(status)
        .setHeader("Content-Type", "application/json")
        .body(body)
        .build();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
