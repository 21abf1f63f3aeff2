package dev.teammemory.deploy.replicas;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The protocol's requests over the JDK's HTTP client, as a load balancer's clients would send them:
 * GET, the hashes probe, PUT with or without {@code If-Match}, and the change feed. A connection
 * failure or timeout is an {@link IOException}; every HTTP status is a {@link Reply}.
 */
public final class TeamMemoryHttp {

  /** The checksum of a never-written repository (PROTOCOL.md). */
  public static final String EMPTY_CHECKSUM =
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  private static final String PATH = "/api/claude_code/team_memory";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client;
  private final Duration timeout;

  public TeamMemoryHttp(Duration timeout) {
    this.timeout = requireNonNull(timeout, "timeout is null");
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
  }

  /**
   * One response.
   *
   * @param status the HTTP status
   * @param body the JSON body, or a null node when there is none
   * @param etag the {@code ETag} header without its quotes
   */
  public record Reply(int status, JsonNode body, Optional<String> etag) {

    public Reply {
      requireNonNull(body, "body is null");
      requireNonNull(etag, "etag is null");
    }

    /** The body's {@code version}. */
    public long version() {
      return body.path("version").asLong(-1);
    }

    /** The body's {@code checksum}. */
    public String checksum() {
      return body.path("checksum").asText("");
    }

    /** An entry of a full GET's {@code content.entries}. */
    public Optional<String> entry(String key) {
      JsonNode entry = body.path("content").path("entries").path(key);
      return entry.isTextual() ? Optional.of(entry.asText()) : Optional.empty();
    }
  }

  public Reply get(URI server, String token, String repo) throws IOException, InterruptedException {
    return send(request(server, token, "?repo=" + encode(repo)).GET());
  }

  public Reply hashes(URI server, String token, String repo)
      throws IOException, InterruptedException {
    return send(request(server, token, "?repo=" + encode(repo) + "&view=hashes").GET());
  }

  public Reply put(
      URI server, String token, String repo, Map<String, String> entries, Optional<String> ifMatch)
      throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode values = body.putObject("entries");
    entries.forEach(values::put);
    HttpRequest.Builder request =
        request(server, token, "?repo=" + encode(repo))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
    ifMatch.ifPresent(checksum -> request.header("If-Match", "\"" + checksum + "\""));
    return send(request);
  }

  /** The change feed: answers when the repository's checksum differs from {@code since}. */
  public Reply changes(URI server, String token, String repo, String since, int waitSeconds)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                server.resolve(
                    PATH
                        + "/changes?repo="
                        + encode(repo)
                        + "&since="
                        + encode(since)
                        + "&wait="
                        + waitSeconds))
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(waitSeconds + 15))
            .GET();
    return send(request);
  }

  /** {@code "sha256:" + hex}, the protocol's entry checksum. */
  public static String checksum(String content) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return "sha256:"
          + HexFormat.of().formatHex(digest.digest(content.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private HttpRequest.Builder request(URI server, String token, String query) {
    return HttpRequest.newBuilder(server.resolve(PATH + query))
        .header("Authorization", "Bearer " + token)
        .header("User-Agent", "tmem-deploy-proof")
        .timeout(timeout);
  }

  private Reply send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<byte[]> response =
        client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    JsonNode body = parse(response.body());
    Optional<String> etag =
        response.headers().firstValue("ETag").map(value -> value.replace("\"", ""));
    return new Reply(response.statusCode(), body, etag);
  }

  /** JSON when it is JSON; a proxy's or a crashed server's page is kept as text. */
  private static JsonNode parse(byte[] body) {
    if (body.length == 0) {
      return NullNode.getInstance();
    }
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      return TextNode.valueOf(new String(body, StandardCharsets.UTF_8));
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
