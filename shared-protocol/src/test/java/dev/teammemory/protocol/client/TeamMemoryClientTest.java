package dev.teammemory.protocol.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.teammemory.protocol.AuthConfig;
import dev.teammemory.protocol.BatchPlanner;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.DeleteResponse;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.PutResponse;
import dev.teammemory.protocol.RepositorySettings;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.store.ExportSummary;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TeamMemoryClientTest {

  private static final String TOKEN = "token-that-must-never-leak";
  private static final String USER_AGENT = "tmem-test/1.0";
  private static final String REPO = "acme/widgets";
  private static final String CHECKSUM = Checksums.ofContent("the repository");
  private static final String MEMORY_CHECKSUM = Checksums.ofContent("# Team memory\n");

  private final AtomicReference<String> token = new AtomicReference<>(TOKEN);
  private MockWebServer server;
  private TeamMemoryClient client;

  @BeforeEach
  void startServer() throws IOException {
    server = new MockWebServer();
    server.start();
    client = new TeamMemoryClient(server.url("/").toString(), token::get, USER_AGENT);
  }

  @AfterEach
  void stopServer() {
    client.close();
    server.close();
  }

  @Test
  void fetchSendsTheProtocolHeadersAndPercentEncodesTheRepo() throws InterruptedException {
    server.enqueue(json(200, snapshotBody()));

    client.fetch(REPO, Optional.empty());

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getTarget()).isEqualTo("/api/claude_code/team_memory?repo=acme%2Fwidgets");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(request.getHeaders().get("anthropic-beta")).isEqualTo("oauth-2025-04-20");
    assertThat(request.getHeaders().get("User-Agent")).isEqualTo(USER_AGENT);
    assertThat(request.getHeaders().get("Accept")).isEqualTo("application/json");
    assertThat(request.getHeaders().get("If-None-Match")).isNull();
  }

  @Test
  void fetchParsesTheSnapshotAndUnquotesTheEtag() {
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .addHeader("Content-Type", "application/json")
            .addHeader("ETag", "\"" + CHECKSUM + "\"")
            .body(snapshotBody())
            .build());

    Response<RepositorySnapshot> response = client.fetch(REPO, Optional.empty());

    assertThat(response).isInstanceOf(Response.Ok.class);
    Response.Ok<RepositorySnapshot> ok = (Response.Ok<RepositorySnapshot>) response;
    assertThat(ok.etag()).contains(CHECKSUM);
    assertThat(ok.body().organizationId()).isEqualTo("acme");
    assertThat(ok.body().version()).isEqualTo(7);
    assertThat(ok.body().checksum()).isEqualTo(CHECKSUM);
    assertThat(ok.body().content().entries())
        .containsExactly(Map.entry("MEMORY.md", "# Team memory\n"));
    assertThat(ok.body().content().entryChecksums())
        .containsExactly(Map.entry("MEMORY.md", MEMORY_CHECKSUM));
  }

  @Test
  void aWeakEtagIsUnquotedToo() {
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .addHeader("ETag", "W/\"" + CHECKSUM + "\"")
            .body(hashesBody())
            .build());

    assertThat(client.fetchHashes(REPO))
        .isEqualTo(new Response.Ok<>(hashes(), Optional.of(CHECKSUM)));
  }

  @Test
  void anOkWithoutEtagHasNone() {
    server.enqueue(json(200, hashesBody()));

    assertThat(client.fetchHashes(REPO)).isEqualTo(new Response.Ok<>(hashes(), Optional.empty()));
  }

  @Test
  void fetchWithAChecksumSendsItQuotedInIfNoneMatchAndReads304AsNotModified()
      throws InterruptedException {
    server.enqueue(new MockResponse.Builder().code(304).build());

    Response<RepositorySnapshot> response = client.fetch(REPO, Optional.of(CHECKSUM));

    assertThat(response).isEqualTo(new Response.NotModified<>());
    assertThat(server.takeRequest().getHeaders().get("If-None-Match"))
        .isEqualTo("\"" + CHECKSUM + "\"");
  }

  @Test
  void fetchOfANeverWrittenRepositoryIsNotFoundWithTheEnvelope() {
    server.enqueue(json(404, error("not_found", "no such repository")));

    Response<RepositorySnapshot> response = client.fetch(REPO, Optional.empty());

    assertThat(response).isInstanceOf(Response.NotFound.class);
    assertThat(errorCode(response)).contains("not_found");
  }

  @Test
  void aNotFoundWithoutAJsonBodyHasNoEnvelope() {
    server.enqueue(new MockResponse.Builder().code(404).body("<html>gone</html>").build());

    assertThat(client.fetch(REPO, Optional.empty()))
        .isEqualTo(new Response.NotFound<>(Optional.empty()));
  }

  @Test
  void aSnapshotMissingARequiredFieldIsATransportFailureNamingTheField() {
    server.enqueue(json(200, snapshotBody().replace("\"organizationId\":\"acme\",", "")));

    Response<RepositorySnapshot> response = client.fetch(REPO, Optional.empty());

    assertThat(response)
        .isEqualTo(
            new Response.TransportFailure<>(
                "GET /api/claude_code/team_memory: 200 with a body that is not the answer this call expects: "
                    + "missing required field 'organizationId'",
                OptionalInt.of(200)));
  }

  @Test
  void aMissingNestedFieldIsNamedByItsPath() {
    server.enqueue(json(200, snapshotBody().replaceFirst(",\"entryChecksums\":\\{[^}]*}", "")));

    Response<RepositorySnapshot> response = client.fetch(REPO, Optional.empty());

    assertThat(response)
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure ->
                assertThat(failure.reason())
                    .endsWith("missing required field 'content.entryChecksums'"));
  }

  @Test
  void aPutResponseWithoutItsChecksumIsATransportFailureNamingTheField() {
    server.enqueue(
        json(
            200,
            "{\"version\":8,\"lastModified\":\"2026-11-21T10:15:30.123Z\","
                + "\"entryChecksums\":{}}"));

    Response<PutResponse> response = client.put(REPO, Map.of("a.md", "a"), Optional.empty());

    assertThat(response)
        .isEqualTo(
            new Response.TransportFailure<>(
                "PUT /api/claude_code/team_memory: 200 with a body that is not the answer this call expects: "
                    + "missing required field 'checksum'",
                OptionalInt.of(200)));
  }

  @Test
  void aMalformedChecksumIsATransportFailureNamingTheField() {
    server.enqueue(json(200, hashesBody().replace(CHECKSUM, "md5:abc")));

    assertThat(client.fetchHashes(REPO))
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure ->
                assertThat(failure.reason())
                    .isEqualTo(
                        "GET /api/claude_code/team_memory: 200 with a body that is not the answer this call expects: "
                            + "checksum is not a sha256: checksum: md5:abc"));
  }

  @Test
  void aFieldOfTheWrongTypeIsNamedWithoutQuotingItsValue() {
    server.enqueue(json(200, hashesBody().replace("\"version\":7", "\"version\":\"secret text\"")));

    assertThat(client.fetchHashes(REPO))
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure ->
                assertThat(failure.reason())
                    .endsWith("field 'version' has the wrong type")
                    .doesNotContain("secret text"));
  }

  @Test
  void anOkThatIsNotJsonIsATransportFailure() {
    server.enqueue(new MockResponse.Builder().code(200).body("<html>proxy login</html>").build());

    assertThat(client.fetchHashes(REPO))
        .isEqualTo(
            new Response.TransportFailure<>(
                "GET /api/claude_code/team_memory: 200 with a body that is not the answer this call expects: not valid JSON",
                OptionalInt.of(200)));
  }

  @Test
  void anOkWithAnEmptyBodyIsATransportFailure() {
    server.enqueue(new MockResponse.Builder().code(200).build());

    assertThat(client.put(REPO, Map.of("a.md", "a"), Optional.empty()))
        .isEqualTo(
            new Response.TransportFailure<>(
                "PUT /api/claude_code/team_memory: 200 with an empty body, where an answer was expected",
                OptionalInt.of(200)));
  }

  @Test
  void fetchHashesAsksForTheHashesView() throws InterruptedException {
    server.enqueue(json(200, hashesBody()));

    client.fetchHashes(REPO);

    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/api/claude_code/team_memory?repo=acme%2Fwidgets&view=hashes");
  }

  @Test
  void putSendsTheBatchBodyAsJsonWithAQuotedIfMatch() throws InterruptedException {
    server.enqueue(json(200, putBody()));
    Map<String, String> entries =
        Map.of("MEMORY.md", "# Team memory\n", "caf\u00e9.md", "\uD83D\uDE00");

    Response<PutResponse> response = client.put(REPO, entries, Optional.of(CHECKSUM));

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("PUT");
    assertThat(request.getTarget()).isEqualTo("/api/claude_code/team_memory?repo=acme%2Fwidgets");
    assertThat(request.getHeaders().get("Content-Type")).isEqualTo("application/json");
    assertThat(request.getHeaders().get("If-Match")).isEqualTo("\"" + CHECKSUM + "\"");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(request.getBody().toByteArray()).isEqualTo(BatchPlanner.body(entries));
    assertThat(request.getBody().string(UTF_8))
        .isEqualTo(
            "{\"entries\":{\"MEMORY.md\":\"# Team memory\\n\",\"caf\u00e9.md\":\"\uD83D\uDE00\"}}");
    assertThat(response)
        .isInstanceOfSatisfying(
            Response.Ok.class,
            ok ->
                assertThat(ok.body())
                    .isEqualTo(
                        new PutResponse(
                            8,
                            CHECKSUM,
                            "2026-11-21T10:15:30.123Z",
                            Map.of("MEMORY.md", MEMORY_CHECKSUM))));
  }

  @Test
  void anUnconditionalPutSendsNoIfMatch() throws InterruptedException {
    server.enqueue(json(200, putBody()));

    client.put(REPO, Map.of("MEMORY.md", "# Team memory\n"), Optional.empty());

    assertThat(server.takeRequest().getHeaders().get("If-Match")).isNull();
  }

  @Test
  void aStaleIfMatchIsAConflict() {
    server.enqueue(json(412, error("precondition_failed", "the repository has changed")));

    Response<PutResponse> response = client.put(REPO, Map.of("a.md", "a"), Optional.of(CHECKSUM));

    assertThat(response).isInstanceOf(Response.Conflict.class);
    assertThat(errorCode(response)).contains("precondition_failed");
  }

  @Test
  void theEntryCapErrorIsTooManyEntriesWithTheServersFigures() {
    server.enqueue(
        json(
            413,
            "{\"error\":{\"details\":{\"error_code\":"
                + "\"team_memory_too_many_entries\",\"max_entries\":2000,\"received_entries\":2013}}}"));

    assertThat(client.put(REPO, Map.of("a.md", "a"), Optional.empty()))
        .isEqualTo(new Response.TooManyEntries<>(2000, 2013));
  }

  @Test
  void anotherPayloadTooLargeIsRejectedWithItsEnvelope() {
    server.enqueue(json(413, error("entry_too_large", "entry is too large")));

    Response<PutResponse> response = client.put(REPO, Map.of("a.md", "a"), Optional.empty());

    assertThat(response)
        .isInstanceOfSatisfying(
            Response.Rejected.class, rejected -> assertThat(rejected.status()).isEqualTo(413));
    assertThat(errorCode(response)).contains("entry_too_large");
  }

  private static final String SHA_A = Checksums.ofContent("a").substring("sha256:".length());

  private static String memoryLine(String id, String key) {
    return "{\"type\":\"memory\",\"id\":\""
        + id
        + "\",\"path\":\"/"
        + key
        + "\",\"content\":\"a\",\"content_sha256\":\""
        + SHA_A
        + "\",\"updated_at\":\"2026-01-01T00:00:00Z\"}\n";
  }

  private static MockResponse ndjson(String body) {
    return new MockResponse.Builder()
        .code(200)
        .addHeader("Content-Type", "application/x-ndjson")
        .body(body)
        .build();
  }

  @Test
  void aWholeExportHandsOverEachMemoryAndTheVersionOfItsStoreLine() throws Exception {
    server.enqueue(
        ndjson(
            "{\"type\":\"store\",\"version\":7}\n"
                + memoryLine("mem_1", "a.md")
                + memoryLine("mem_2", "b/c.md")
                + "{\"type\":\"complete\",\"memory_count\":2,\"error_count\":0}\n"));
    List<String> keys = new java.util.ArrayList<>();

    Response<ExportSummary> response =
        client.memoryStores().export("memstore_1", memory -> keys.add(memory.key()));

    assertThat(response)
        .isEqualTo(
            new Response.Ok<>(
                new ExportSummary(2, java.util.OptionalLong.of(7)), Optional.empty()));
    assertThat(keys).containsExactly("a.md", "b/c.md");
    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/v1/memory_stores/memstore_1/memories/export");
  }

  @Test
  void theReviewSettingIsReadFromItsEndpoint() throws Exception {
    server.enqueue(json(200, "{\"review\":\"required\"}"));

    Response<RepositorySettings> response = client.settings("acme/widgets");

    assertThat(response)
        .isEqualTo(new Response.Ok<>(new RepositorySettings("required"), Optional.empty()));
    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/api/claude_code/team_memory/settings?repo=acme%2Fwidgets");
  }

  @Test
  void anExportLineNamesTheAuthorOfTheMemorysCurrentVersion() throws Exception {
    server.enqueue(
        ndjson(
            "{\"type\":\"store\",\"version\":7}\n"
                + "{\"type\":\"memory\",\"id\":\"mem_1\",\"path\":\"/a.md\",\"content\":\"x\","
                + "\"content_sha256\":\""
                + "0".repeat(64)
                + "\",\"updated_by\":{\"type\":\"user_actor\",\"user_id\":\"alice\"}}\n"
                + memoryLine("mem_2", "b.md")
                + "{\"type\":\"complete\",\"memory_count\":2,\"error_count\":0}\n"));
    Map<String, Optional<String>> authors = new java.util.LinkedHashMap<>();

    client
        .memoryStores()
        .export("memstore_1", memory -> authors.put(memory.key(), memory.author()));

    assertThat(authors)
        .containsExactly(
            Map.entry("a.md", Optional.of("alice")), Map.entry("b.md", Optional.empty()));
  }

  @Test
  void anExportWithoutItsCompleteLineIsAFailureToRetry() {
    server.enqueue(ndjson("{\"type\":\"store\"}\n" + memoryLine("mem_1", "a.md")));

    Response<ExportSummary> response = client.memoryStores().export("memstore_1", memory -> {});

    assertThat(response)
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure -> assertThat(failure.reason()).contains("without its complete line"));
  }

  @Test
  void anExportWhoseCountIsNotTheMemoriesSentIsAFailure() {
    server.enqueue(
        ndjson(
            memoryLine("mem_1", "a.md")
                + "{\"type\":\"complete\",\"memory_count\":2,\"error_count\":0}\n"));

    assertThat(client.memoryStores().export("memstore_1", memory -> {}))
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure -> assertThat(failure.reason()).contains("counts 2 memories"));
  }

  @Test
  void anExportLineThatIsNotJsonIsAFailureThatDoesNotQuoteIt() {
    server.enqueue(ndjson("{\"type\":\"memory\",\"content\":\"secret stuff\n"));

    assertThat(client.memoryStores().export("memstore_1", memory -> {}))
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure ->
                assertThat(failure.reason())
                    .contains("line 1 is not valid JSON")
                    .doesNotContain("secret stuff"));
  }

  @Test
  void aServerWithoutTheExportAnswersNotFound() {
    server.enqueue(json(404, error("not_found", "no such route")));

    assertThat(client.memoryStores().export("memstore_1", memory -> {}))
        .isInstanceOf(Response.NotFound.class);
  }

  @Test
  void theMemoryStoresErrorEnvelopeIsReadWithItsTypeAndMessage() {
    server.enqueue(
        json(
            400,
            "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                + "\"message\":\"content must be at most 102400 bytes\"}}"));

    Response<?> response = client.memoryStores().create("memstore_1", "a.md", "a");

    assertThat(response)
        .isInstanceOfSatisfying(
            Response.Rejected.class, rejected -> assertThat(rejected.status()).isEqualTo(400));
    assertThat(errorMessage(response)).contains("content must be at most 102400 bytes");
    assertThat(errorCode(response)).contains("invalid_request_error");
  }

  @Test
  void aTeamMemoryErrorKeepsItsCodeAndMessage() {
    server.enqueue(json(400, error("invalid_key", "key must not be empty")));

    Response<?> response = client.put(REPO, Map.of("a.md", "a"), Optional.empty());

    assertThat(errorCode(response)).contains("invalid_key");
    assertThat(errorMessage(response)).contains("key must not be empty");
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 403, 409, 415, 422})
  void otherClientErrorsAreRejectedWithTheirStatus(int status) {
    server.enqueue(json(status, error("some_code", "some message")));

    assertThat(client.put(REPO, Map.of("a.md", "a"), Optional.empty()))
        .isInstanceOfSatisfying(
            Response.Rejected.class, rejected -> assertThat(rejected.status()).isEqualTo(status));
  }

  @Test
  void a401IsUnauthorized() {
    server.enqueue(json(401, error("unauthorized", "missing or invalid token")));

    Response<RepositorySnapshot> response = client.fetch(REPO, Optional.empty());

    assertThat(response).isInstanceOf(Response.Unauthorized.class);
    assertThat(errorCode(response)).contains("unauthorized");
  }

  @ParameterizedTest
  @ValueSource(ints = {500, 502, 503})
  void serverErrorsAreTransportFailuresWithTheirStatus(int status) {
    server.enqueue(new MockResponse.Builder().code(status).body("upstream " + TOKEN).build());

    assertThat(client.fetch(REPO, Optional.empty()))
        .isEqualTo(
            new Response.TransportFailure<>(
                "GET /api/claude_code/team_memory answered " + status, OptionalInt.of(status)));
  }

  @Test
  void aBusyServerIsATransportFailureToRetryNotARefusal() {
    server.enqueue(json(429, error("rate_limit_error", "too many requests")));

    assertThat(client.fetch(REPO, Optional.empty()))
        .isEqualTo(
            new Response.TransportFailure<>(
                "GET /api/claude_code/team_memory answered 429 (busy; try again later)",
                OptionalInt.of(429)));
  }

  @Test
  void anUnexpectedRedirectIsATransportFailure() {
    OkHttpClient noRedirects = new OkHttpClient.Builder().followRedirects(false).build();
    TeamMemoryClient strict =
        new TeamMemoryClient(noRedirects, server.url("/").toString(), token::get, USER_AGENT);
    server.enqueue(new MockResponse.Builder().code(302).addHeader("Location", "/login").build());

    assertThat(strict.fetch(REPO, Optional.empty()))
        .isEqualTo(
            new Response.TransportFailure<>(
                "GET /api/claude_code/team_memory answered an unexpected status 302",
                OptionalInt.of(302)));
  }

  @Test
  void anUnreachableServerIsATransportFailureWithoutStatus() {
    String url = server.url("/").toString();
    server.close();
    TeamMemoryClient offline = new TeamMemoryClient(url, token::get, USER_AGENT);

    Response<PutResponse> response =
        offline.put(REPO, Map.of("a.md", "entry content"), Optional.empty());

    assertThat(response)
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure -> {
              assertThat(failure.status()).isEmpty();
              assertThat(failure.reason())
                  .startsWith("PUT /api/claude_code/team_memory failed: ")
                  .doesNotContain(TOKEN)
                  .doesNotContain("entry content");
            });
    offline.close();
  }

  @Test
  void aStalledServerIsATransportFailureAfterTheReadTimeout() {
    OkHttpClient impatient = new OkHttpClient.Builder().readTimeout(Duration.ofMillis(200)).build();
    TeamMemoryClient client =
        new TeamMemoryClient(impatient, server.url("/").toString(), token::get, USER_AGENT);
    server.enqueue(new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());

    assertThat(client.fetchHashes(REPO))
        .isInstanceOfSatisfying(
            Response.TransportFailure.class,
            failure ->
                assertThat(failure.reason())
                    .isEqualTo(
                        "GET /api/claude_code/team_memory failed: the server did not answer in"
                            + " time"));
  }

  @Test
  void noTokenSendsNoAuthorizationHeader() throws InterruptedException {
    token.set(null);
    server.enqueue(json(401, error("unauthorized", "missing token")));

    assertThat(client.fetchHashes(REPO)).isInstanceOf(Response.Unauthorized.class);
    assertThat(server.takeRequest().getHeaders().get("Authorization")).isNull();
  }

  @Test
  void theTokenIsAskedForAtEveryRequest() throws InterruptedException {
    server.enqueue(json(200, hashesBody()));
    server.enqueue(json(200, hashesBody()));

    client.fetchHashes(REPO);
    token.set("refreshed");
    client.fetchHashes(REPO);

    assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(server.takeRequest().getHeaders().get("Authorization"))
        .isEqualTo("Bearer refreshed");
  }

  @Test
  void deleteSendsTheEncodedKeyAndIfMatch() throws InterruptedException {
    server.enqueue(
        json(
            200,
            "{\"version\":9,\"checksum\":\""
                + CHECKSUM
                + "\",\"lastModified\":\"2026-11-21T10:15:30.123Z\"}"));

    Response<DeleteResponse> response =
        client.delete(REPO, "notes/caf\u00e9 1.md", Optional.of(CHECKSUM));

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("DELETE");
    assertThat(request.getTarget())
        .isEqualTo("/api/claude_code/team_memory?repo=acme%2Fwidgets&key=notes%2Fcaf%C3%A9%201.md");
    assertThat(request.getHeaders().get("If-Match")).isEqualTo("\"" + CHECKSUM + "\"");
    assertThat(response)
        .isEqualTo(
            new Response.Ok<>(
                new DeleteResponse(9, CHECKSUM, "2026-11-21T10:15:30.123Z"), Optional.empty()));
  }

  @Test
  void waitForChangeAsksTheChangeFeedAndReads304AsNotModified() throws InterruptedException {
    server.enqueue(new MockResponse.Builder().code(304).build());

    Response<HashesView> response = client.waitForChange(REPO, CHECKSUM, Duration.ofSeconds(30));

    assertThat(response).isEqualTo(new Response.NotModified<>());
    RecordedRequest request = server.takeRequest();
    assertThat(request.getUrl().encodedPath()).isEqualTo("/api/claude_code/team_memory/changes");
    assertThat(request.getUrl().queryParameter("repo")).isEqualTo(REPO);
    assertThat(request.getUrl().queryParameter("since")).isEqualTo(CHECKSUM);
    assertThat(request.getUrl().queryParameter("wait")).isEqualTo("30");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TOKEN);
  }

  @Test
  void waitForChangeReturnsTheNewHashes() {
    server.enqueue(json(200, hashesBody()));

    assertThat(client.waitForChange(REPO, Checksums.EMPTY, Duration.ZERO))
        .isEqualTo(new Response.Ok<>(hashes(), Optional.empty()));
  }

  @Test
  void waitForChangeRoundsUpToWholeSecondsAndCapsAtSixty() throws InterruptedException {
    server.enqueue(new MockResponse.Builder().code(304).build());
    server.enqueue(new MockResponse.Builder().code(304).build());

    client.waitForChange(REPO, CHECKSUM, Duration.ofMillis(1500));
    client.waitForChange(REPO, CHECKSUM, Duration.ofMinutes(5));

    assertThat(server.takeRequest().getUrl().queryParameter("wait")).isEqualTo("2");
    assertThat(server.takeRequest().getUrl().queryParameter("wait")).isEqualTo("60");
    assertThatThrownBy(() -> client.waitForChange(REPO, CHECKSUM, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("wait is negative: PT-1S");
  }

  @Test
  void historyAsksForOneKeyAndParsesItsVersions() throws InterruptedException {
    server.enqueue(
        json(
            200,
            "{\"repo\":\"acme/widgets\",\"key\":\"MEMORY.md\",\"versions\":["
                + "{\"version\":2,\"checksum\":\""
                + MEMORY_CHECKSUM
                + "\",\"content\":\"# Team memory\\n\","
                + "\"author\":\"alice\",\"at\":\"2026-11-21T10:15:30.123Z\",\"deleted\":false}]}"));

    Response<EntryHistory> response = client.history(REPO, "MEMORY.md");

    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/api/claude_code/team_memory/history?repo=acme%2Fwidgets&key=MEMORY.md");
    assertThat(response)
        .isEqualTo(
            new Response.Ok<>(
                new EntryHistory(
                    REPO,
                    "MEMORY.md",
                    List.of(
                        new EntryHistory.Version(
                            2,
                            MEMORY_CHECKSUM,
                            "# Team memory\n",
                            "alice",
                            "2026-11-21T10:15:30.123Z",
                            false))),
                Optional.empty()));
  }

  @Test
  void historyAsksForTheNextPageByItsCursorAndParsesTheNextCursor() throws InterruptedException {
    server.enqueue(
        json(
            200,
            "{\"repo\":\"acme/widgets\",\"key\":\"MEMORY.md\",\"versions\":[],"
                + "\"next_page\":\"v12\"}"));

    Response<EntryHistory> response = client.history(REPO, "MEMORY.md", Optional.of("v40"));

    assertThat(server.takeRequest().getTarget())
        .isEqualTo(
            "/api/claude_code/team_memory/history?repo=acme%2Fwidgets&key=MEMORY.md&page=v40");
    assertThat(response)
        .isEqualTo(
            new Response.Ok<>(
                new EntryHistory(REPO, "MEMORY.md", List.of(), "v12"), Optional.empty()));
  }

  @Test
  void authConfigIsFetchedWithoutAToken() throws InterruptedException {
    server.enqueue(
        json(
            200,
            "{\"github\":{\"clientId\":\"Iv1.abc\","
                + "\"deviceCodeUrl\":\"https://github.com/login/device/code\","
                + "\"tokenUrl\":\"https://github.com/login/oauth/access_token\","
                + "\"apiUrl\":\"https://api.github.com\",\"scopes\":[\"repo\"]}}"));

    Response<AuthConfig> response = client.authConfig();

    RecordedRequest request = server.takeRequest();
    assertThat(request.getTarget()).isEqualTo("/api/auth/config");
    assertThat(request.getHeaders().get("Authorization")).isNull();
    assertThat(request.getHeaders().get("User-Agent")).isEqualTo(USER_AGENT);
    assertThat(response)
        .isInstanceOfSatisfying(
            Response.Ok.class,
            ok -> assertThat(((AuthConfig) ok.body()).github().scopes()).containsExactly("repo"));
  }

  @Test
  void aBaseUrlWithAPathPrefixKeepsIt() throws InterruptedException {
    TeamMemoryClient prefixed =
        new TeamMemoryClient(server.url("/tmem/").toString(), token::get, USER_AGENT);
    server.enqueue(json(200, hashesBody()));

    prefixed.fetchHashes(REPO);

    assertThat(server.takeRequest().getUrl().encodedPath())
        .isEqualTo("/tmem/api/claude_code/team_memory");
    prefixed.close();
  }

  @Test
  void rejectsABaseUrlThatIsNotHttp() {
    assertThatThrownBy(() -> new TeamMemoryClient("ftp://example.org", token::get, USER_AGENT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("baseUrl is not an http or https URL: ftp://example.org");
  }

  private static Optional<String> errorMessage(Response<?> response) {
    return response instanceof Response.Rejected<?> rejected
        ? rejected.error().flatMap(ErrorEnvelope::message)
        : Optional.empty();
  }

  private static Optional<String> errorCode(Response<?> response) {
    Optional<ErrorEnvelope> error =
        switch (response) {
          case Response.NotFound<?> notFound -> notFound.error();
          case Response.Conflict<?> conflict -> conflict.error();
          case Response.Rejected<?> rejected -> rejected.error();
          case Response.Unauthorized<?> unauthorized -> unauthorized.error();
          default -> Optional.empty();
        };
    return error.flatMap(ErrorEnvelope::errorCode);
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse.Builder()
        .code(status)
        .addHeader("Content-Type", "application/json")
        .body(body)
        .build();
  }

  private static String error(String code, String message) {
    return "{\"error\":{\"message\":\""
        + message
        + "\",\"details\":{\"error_code\":\""
        + code
        + "\"}}}";
  }

  private static String snapshotBody() {
    return "{\"organizationId\":\"acme\",\"repo\":\"acme/widgets\",\"version\":7,"
        + "\"lastModified\":\"2026-11-21T10:15:30.123Z\",\"checksum\":\""
        + CHECKSUM
        + "\","
        + "\"content\":{\"entries\":{\"MEMORY.md\":\"# Team memory\\n\"},"
        + "\"entryChecksums\":{\"MEMORY.md\":\""
        + MEMORY_CHECKSUM
        + "\"}}}";
  }

  private static String hashesBody() {
    return "{\"version\":7,\"checksum\":\""
        + CHECKSUM
        + "\",\"entryChecksums\":{\"MEMORY.md\":\""
        + MEMORY_CHECKSUM
        + "\"}}";
  }

  private static HashesView hashes() {
    return new HashesView(7, CHECKSUM, Map.of("MEMORY.md", MEMORY_CHECKSUM), Map.of());
  }

  private static String putBody() {
    return "{\"version\":8,\"checksum\":\""
        + CHECKSUM
        + "\","
        + "\"lastModified\":\"2026-11-21T10:15:30.123Z\","
        + "\"entryChecksums\":{\"MEMORY.md\":\""
        + MEMORY_CHECKSUM
        + "\"}}";
  }
}
