package dev.teammemory.protocol.suite;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.BatchPlanner;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.ByteString;

/**
 * The server under test, as the suite talks to it: raw HTTP where the exact exchange is the point
 * (headers, quoting, byte-exact bodies, malformed input), the typed {@link TeamMemoryClient} where
 * it is not. One instance serves the whole run.
 */
final class ProtocolServer {

  static final String MEMORY_PATH = "/api/claude_code/team_memory";
  static final String USER_AGENT = "tmem-protocol-suite/1";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static ProtocolServer shared;

  private final SuiteConfig config;
  private final OkHttpClient http;
  private final String unknownToken = "suite-unknown-" + randomHex(16);

  private ProtocolServer(SuiteConfig config) {
    this.config = requireNonNull(config, "config is null");
    // Long enough for a change-feed wait and a 50 MB repository; the suite asserts no timings.
    this.http =
        new OkHttpClient.Builder()
            .connectTimeout(Duration.ofSeconds(10))
            .readTimeout(Duration.ofSeconds(90))
            .writeTimeout(Duration.ofSeconds(90))
            .followRedirects(false)
            .build();
  }

  /** The server of this run, configured by {@link SuiteConfig#load()}. */
  static synchronized ProtocolServer shared() {
    SuiteConfig config = SuiteConfig.load();
    if (shared == null || !shared.config.equals(config)) {
      shared = new ProtocolServer(config);
    }
    return shared;
  }

  SuiteConfig config() {
    return config;
  }

  /** Who makes a request: the three configured tokens, no token, or a token nobody issued. */
  enum Caller {
    WRITER,
    READER,
    OUTSIDER,
    ANONYMOUS,
    UNKNOWN_TOKEN
  }

  /** A repository name no test has used: {@code <owner>/suite-<random>}. */
  String newRepository() {
    return config.owner() + "/suite-" + randomHex(12);
  }

  HttpCall call(String method, String path) {
    return new HttpCall(method, path);
  }

  /** A request to the repository resource, {@code repo} percent-encoded as clients send it. */
  HttpCall memory(String method, String repo) {
    return call(method, MEMORY_PATH).query("repo", repo);
  }

  Reply get(String repo) {
    return memory("GET", repo).send();
  }

  Reply hashes(String repo) {
    return memory("GET", repo).query("view", "hashes").send();
  }

  /** An unconditional PUT by the writer, the body written as the reference client writes it. */
  Reply put(String repo, Map<String, String> entries) {
    return memory("PUT", repo).json(BatchPlanner.body(entries)).send();
  }

  Reply putIfMatch(String repo, Map<String, String> entries, String ifMatch) {
    return memory("PUT", repo).header("If-Match", ifMatch).json(BatchPlanner.body(entries)).send();
  }

  /**
   * Writes {@code entries} (in as many PUTs as the body limit needs) and answers the last reply.
   */
  Reply write(String repo, Map<String, String> entries) {
    Reply last = null;
    for (Map<String, String> batch : BatchPlanner.plan(entries, BatchPlanner.MAX_BATCH_BYTES)) {
      last = put(repo, batch).expectStatus(200);
    }
    return requireNonNull(last, "nothing to write");
  }

  /** Everything a reader can observe of a repository, to compare before and after a request. */
  RepositoryState state(String repo) {
    Reply full = get(repo);
    Reply hashes = hashes(repo);
    return new RepositoryState(
        full.status(), full.header("ETag"), full.body(), hashes.status(), hashes.body());
  }

  TeamMemoryClient client(Caller caller) {
    return new TeamMemoryClient(http, config.url().toString(), () -> token(caller), USER_AGENT);
  }

  private String token(Caller caller) {
    return switch (caller) {
      case WRITER -> config.writerToken();
      case READER -> config.readerToken();
      case OUTSIDER -> config.outsiderToken();
      case ANONYMOUS -> null;
      case UNKNOWN_TOKEN -> unknownToken;
    };
  }

  static String randomHex(int bytes) {
    byte[] random = new byte[bytes];
    RANDOM.nextBytes(random);
    return HexFormat.of().formatHex(random);
  }

  /** What a reader sees of a repository; equal states are byte-identical. */
  record RepositoryState(
      int status, String etag, ByteString body, int hashesStatus, ByteString hashesBody) {}

  /** One request under construction. By default the writer sends it. */
  final class HttpCall {

    private final String method;
    private final String path;
    private final List<Map.Entry<String, String>> query = new ArrayList<>();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private String rawQuery;
    private Caller caller = Caller.WRITER;
    private byte[] body;
    private String contentType;

    private HttpCall(String method, String path) {
      this.method = method;
      this.path = path;
    }

    HttpCall as(Caller caller) {
      this.caller = requireNonNull(caller, "caller is null");
      return this;
    }

    /** A query parameter, percent-encoded ({@code /} becomes {@code %2F}). */
    HttpCall query(String name, String value) {
      query.add(Map.entry(name, value));
      return this;
    }

    /** The whole query string exactly as given, replacing any {@link #query} parameters. */
    HttpCall rawQuery(String encodedQuery) {
      this.rawQuery = encodedQuery;
      return this;
    }

    HttpCall header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    /** A body with this {@code Content-Type}, or none when {@code contentType} is null. */
    HttpCall body(byte[] body, String contentType) {
      this.body = body;
      this.contentType = contentType;
      return this;
    }

    HttpCall json(byte[] body) {
      return body(body, "application/json");
    }

    HttpCall json(String body) {
      return json(body.getBytes(UTF_8));
    }

    Reply send() {
      HttpUrl.Builder url = HttpUrl.get(config.url().toString()).newBuilder().encodedPath(path);
      if (rawQuery != null) {
        url.encodedQuery(rawQuery);
      } else {
        query.forEach(parameter -> url.addQueryParameter(parameter.getKey(), parameter.getValue()));
      }
      Request.Builder request =
          new Request.Builder()
              .url(url.build())
              .header("Accept", "application/json")
              .header("User-Agent", USER_AGENT)
              .header("anthropic-beta", "oauth-2025-04-20");
      String token = token(caller);
      if (token != null) {
        request.header("Authorization", "Bearer " + token);
      }
      headers.forEach(request::header);
      RequestBody requestBody = null;
      if (body != null) {
        requestBody =
            RequestBody.create(body, contentType == null ? null : MediaType.get(contentType));
      } else if (method.equals("PUT") || method.equals("POST")) {
        requestBody = RequestBody.create(new byte[0], null);
      }
      request.method(method, requestBody);
      Request built = request.build();
      String description = method + " " + built.url().encodedPath() + describeQuery(built.url());
      try (okhttp3.Response response = http.newCall(built).execute()) {
        return new Reply(
            description, response.code(), response.headers(), response.body().byteString());
      } catch (IOException e) {
        throw new UncheckedIOException("the server did not answer " + description, e);
      }
    }

    private static String describeQuery(HttpUrl url) {
      String query = url.encodedQuery();
      return query == null ? "" : "?" + (query.length() > 200 ? query.substring(0, 200) : query);
    }
  }
}
