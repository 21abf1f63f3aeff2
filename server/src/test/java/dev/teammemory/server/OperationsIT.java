package dev.teammemory.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.teammemory.server.github.FakeGitHub;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator sees of the packaged server: its JSON log lines ({@code TMEM_LOG_FORMAT=json}),
 * and the metrics that the dashboard and alert rules of {@code deploy/observability} query. One
 * server, started once with static tokens and GitHub login (a fake of GitHub's API), and exercised
 * once as a team would: writes, reads, a stale {@code If-Match}, a reader writing, a secret, a bad
 * token, GitHub users, GitHub failing, the change feed, and the Memory Stores API.
 */
class OperationsIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path OBSERVABILITY = Path.of("..", "deploy", "observability");
  private static final String REPOSITORY = "ops/log-shape";
  private static final String OFFERED_REQUEST_ID = "proxy-4711";

  @TempDir static Path work;

  private static FakeGitHub gitHub;
  private static PackagedServer server;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static final String WRITER = "writer-" + randomHex(16);
  private static final String READER = "reader-" + randomHex(16);
  private static final String GITHUB_USER = "gho_" + randomHex(18);
  private static final String UNKNOWN = "unknown-" + randomHex(16);
  private static final String CONTENT = "content-marker-" + randomHex(8);
  private static final String SECRET = "ghp_" + randomHex(18);

  /** The statuses of the exercise, in order, for the messages of failed assertions. */
  private static final List<Integer> statuses = new ArrayList<>();

  @BeforeAll
  static void startAndExercise() throws Exception {
    gitHub = new FakeGitHub();
    gitHub.addUser(GITHUB_USER, "octo-ops", 4242);
    gitHub.grant("octo-ops", "ops/*", "write");
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(
        tokens, WRITER + " ops-writer ops/* write\n" + READER + " ops-reader ops/* read\n", UTF_8);
    server =
        PackagedServer.start(
            work.resolve("data"),
            work.resolve("server.log"),
            Map.of(
                "TMEM_LOG_FORMAT",
                "json",
                "TMEM_AUTH_STATIC_TOKENS_FILE",
                tokens.toString(),
                "TMEM_AUTH_GITHUB_CLIENT_ID",
                "Iv1.ops0client0id",
                "TMEM_AUTH_GITHUB_API_URL",
                gitHub.apiUrl()));

    String body = "{\"entries\":{\"MEMORY.md\":\"# Team\\n" + CONTENT + "\\n\"}}";
    HttpResponse<String> created = put(WRITER, body, Map.of("X-Request-Id", OFFERED_REQUEST_ID));
    String checksum = JSON.readTree(created.body()).path("checksum").asText();
    get(READER, "");
    put(WRITER, "{\"entries\":{\"MEMORY.md\":\"# Team, again\\n\"}}", Map.of());
    put(WRITER, body, Map.of("If-Match", "\"" + checksum + "\"")); // stale now: 412
    put(READER, body, Map.of()); // a reader writing: 403
    put(WRITER, "{\"entries\":{\"token.md\":\"github_token = " + SECRET + "\\n\"}}", Map.of());
    get(UNKNOWN, ""); // GitHub does not know it: 401
    get(GITHUB_USER, ""); // GitHub asked for the user and the permission
    get(GITHUB_USER, "&view=hashes"); // both cached
    String current = JSON.readTree(get(WRITER, "&view=hashes").body()).path("checksum").asText();
    send(
        WRITER,
        HttpRequest.newBuilder(
                api(
                    "/changes?repo="
                        + URLEncoder.encode(REPOSITORY, UTF_8)
                        + "&since="
                        + URLEncoder.encode(current, UTF_8)
                        + "&wait=1"))
            .GET());
    // The Memory Stores API, with the key as older SDKs send it: one line a request as well.
    String store =
        JSON.readTree(storesApi(WRITER, "", "{\"name\":\"" + REPOSITORY + "\"}").body())
            .path("id")
            .asText();
    storesApi(
        WRITER,
        "/" + store + "/memories",
        "{\"path\":\"/ops.md\",\"content\":\"" + CONTENT + "\"}");
    storesApi( // a secret: 400
        WRITER,
        "/" + store + "/memories",
        "{\"path\":\"/token.md\",\"content\":\"github_token = " + SECRET + "\"}");
    gitHub.availability(FakeGitHub.Availability.FAILING);
    get("gho_" + randomHex(18), ""); // a token GitHub cannot verify now: 503
    gitHub.availability(FakeGitHub.Availability.UP);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (gitHub != null) {
      gitHub.close();
    }
  }

  @Test
  void everyLineIsOneJsonObjectWithTimeLevelLoggerAndMessage() throws IOException {
    List<JsonNode> lines = jsonLines();

    assertThat(lines).hasSizeGreaterThan(10);
    assertThat(lines)
        .allSatisfy(
            line -> {
              assertThat(line.path("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
              assertThat(line.path("level").asText()).isIn("INFO", "WARN", "ERROR");
              assertThat(line.path("logger").asText()).isNotBlank();
              assertThat(line.path("message").isTextual()).isTrue();
            });
    assertThat(lines)
        .as("the earliest lines, before Quarkus has started, are JSON too")
        .anySatisfy(
            line ->
                assertThat(line.path("message").asText())
                    .startsWith("No datasource configured: started the embedded PostgreSQL"));
  }

  @Test
  void aRequestLineCarriesRequestIdRepositoryUserStatusAndDuration() throws IOException {
    List<JsonNode> requests = requestLines();

    JsonNode created =
        requests.stream()
            .filter(line -> OFFERED_REQUEST_ID.equals(line.path("request_id").asText()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no line for " + OFFERED_REQUEST_ID));
    assertThat(created.path("message").asText())
        .startsWith("PUT /api/claude_code/team_memory 200 in ");
    assertThat(created.path("repository").asText()).isEqualTo(REPOSITORY);
    assertThat(created.path("user").asText()).isEqualTo("ops-writer");
    assertThat(created.path("status").isInt()).isTrue();
    assertThat(created.path("status").asInt()).isEqualTo(200);
    assertThat(created.path("duration_ms").isNumber()).isTrue();
    assertThat(created.path("duration_ms").asDouble()).isPositive();

    assertThat(requests)
        .as("statuses of the request lines, the exercise being %s", statuses)
        .extracting(line -> line.path("status").asInt())
        .contains(200, 401, 403, 412, 422, 503);
    assertThat(requests)
        .allSatisfy(line -> assertThat(line.path("request_id").asText()).isNotBlank());
    assertThat(requests)
        .filteredOn(line -> line.path("status").asInt() == 401)
        .allSatisfy(
            line -> assertThat(line.has("user")).as("no user behind a bad token").isFalse());
    assertThat(requests)
        .filteredOn(line -> "octo-ops".equals(line.path("user").asText()))
        .as("GitHub users are named too")
        .hasSize(2);
  }

  @Test
  void memoryStoresApiRequestsGetTheirLineWithUserAndRepository() throws IOException {
    List<JsonNode> lines =
        requestLines().stream()
            .filter(line -> line.path("message").asText().startsWith("POST /v1/memory_stores"))
            .toList();

    assertThat(lines)
        .extracting(line -> line.path("status").asInt())
        .as("statuses of the exercise %s", statuses)
        .containsExactly(200, 200, 400);
    assertThat(lines)
        .allSatisfy(
            line -> {
              assertThat(line.path("user").asText()).isEqualTo("ops-writer");
              assertThat(line.path("repository").asText()).isEqualTo(REPOSITORY);
            });
  }

  @Test
  void linesLoggedWhileServingARequestCarryItsRequestIdUserAndRepository() throws IOException {
    JsonNode write =
        jsonLines().stream()
            .filter(line -> line.path("message").asText().startsWith("PUT " + REPOSITORY + " by"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no write line"));

    assertThat(write.path("request_id").asText()).isEqualTo(OFFERED_REQUEST_ID);
    assertThat(write.path("user").asText()).isEqualTo("ops-writer");
    assertThat(write.path("repository").asText()).isEqualTo(REPOSITORY);
    assertThat(write.has("status")).as("only the request's own line has a status").isFalse();
  }

  @Test
  void noTokenContentOrSecretReachesTheLog() throws IOException {
    String log = String.join("\n", server.logLines());

    assertThat(log)
        .doesNotContain(WRITER)
        .doesNotContain(READER)
        .doesNotContain(GITHUB_USER)
        .doesNotContain(UNKNOWN)
        .doesNotContain(CONTENT)
        .doesNotContain(SECRET)
        .doesNotContain("Bearer ");
  }

  @Test
  void everyMetricTheDashboardAndTheAlertRulesQueryIsOneTheServerExports() throws Exception {
    Map<String, Set<String>> exported =
        PrometheusQueries.exported(
            HTTP.send(
                    HttpRequest.newBuilder(server.url().resolve("/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString())
                .body());
    // Prometheus's own series of every target, and the labels it adds to every series it scrapes.
    exported.put("up", Set.of());
    Set<String> added = Set.of("job", "instance");

    List<String> expressions = new ArrayList<>();
    JsonNode dashboard = JSON.readTree(OBSERVABILITY.resolve("grafana-dashboard.json").toFile());
    dashboard.findValues("expr").forEach(expression -> expressions.add(expression.asText()));
    JsonNode rules = YAML.readTree(OBSERVABILITY.resolve("alert-rules.yaml").toFile());
    rules.findValues("expr").forEach(expression -> expressions.add(expression.asText()));
    Map<String, Set<String>> queried = PrometheusQueries.selectors(expressions);

    assertThat(dashboard.path("panels")).hasSizeGreaterThanOrEqualTo(10);
    assertThat(rules.findValues("alert")).hasSize(5);
    assertThat(queried)
        .as("metrics the dashboard and the alerts query")
        .containsKeys(
            "http_server_requests_seconds_count",
            "http_server_requests_seconds_bucket",
            "tmem_rejections_total",
            "tmem_change_feed_waiters",
            "tmem_github_calls_total",
            "tmem_github_permission_lookups_total",
            "agroal_active_count",
            "tmem_database_up",
            "tmem_ready",
            "up");
    assertThat(exported.keySet())
        .as("metrics the server exports, after the exercise")
        .containsAll(queried.keySet());
    queried.forEach(
        (metric, labels) ->
            assertThat(union(exported.get(metric), added))
                .as("labels of %s", metric)
                .containsAll(labels));
  }

  private static Set<String> union(Set<String> first, Set<String> second) {
    Set<String> union = new HashSet<>(first);
    union.addAll(second);
    return union;
  }

  private static List<JsonNode> requestLines() throws IOException {
    return jsonLines().stream()
        .filter(line -> line.path("logger").asText().endsWith(".RequestLog"))
        .toList();
  }

  private static List<JsonNode> jsonLines() throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : server.logLines()) {
      JsonNode parsed;
      try {
        parsed = JSON.readTree(line);
      } catch (IOException e) {
        throw new AssertionError("not a JSON line: " + line, e);
      }
      assertThat(parsed.isObject()).as("a JSON object: %s", line).isTrue();
      lines.add(parsed);
    }
    return lines;
  }

  private static HttpResponse<String> put(String token, String body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(api("?repo=" + URLEncoder.encode(REPOSITORY, UTF_8)))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return send(token, request);
  }

  private static HttpResponse<String> get(String token, String query) throws Exception {
    return send(
        token,
        HttpRequest.newBuilder(api("?repo=" + URLEncoder.encode(REPOSITORY, UTF_8) + query)).GET());
  }

  private static HttpResponse<String> send(String token, HttpRequest.Builder request)
      throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            request
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    statuses.add(response.statusCode());
    return response;
  }

  /** A POST to {@code /v1/memory_stores…} with the key in {@code x-api-key}. */
  private static HttpResponse<String> storesApi(String key, String rest, String body)
      throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(server.url().resolve("/v1/memory_stores" + rest))
                .header("x-api-key", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    statuses.add(response.statusCode());
    return response;
  }

  private static URI api(String rest) {
    return server.url().resolve("/api/claude_code/team_memory" + rest);
  }

  private static String randomHex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }
}
