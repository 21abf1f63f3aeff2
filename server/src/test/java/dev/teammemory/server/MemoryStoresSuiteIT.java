package dev.teammemory.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.models.beta.memorystores.MemoryStoreCreateParams;
import com.anthropic.models.beta.memorystores.MemoryStoreListParams;
import com.anthropic.services.blocking.beta.MemoryStoreService;
import com.fasterxml.jackson.databind.JsonNode;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.protocol.suite.SuiteConfig;
import dev.teammemory.server.github.FakeGitHub;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The packaged server with a 96 MB heap, as an operator runs it (static tokens, and GitHub login
 * against a fake GitHub), booted once for: the Memory Stores suite of {@code shared-protocol} (the
 * official Java SDK drives it), a GitHub user's store list, and exporting a 48 MB store (2,000
 * memories of 24 KB) — an export that held the store in memory would not fit in that heap.
 */
class MemoryStoresSuiteIT {

  private static final String OWNER = "stores-suite";
  private static final String SUITE_PACKAGE = "dev.teammemory.protocol.stores";

  /** Fewer tests than this means the suite was not found or lost tests on the way. */
  private static final int MINIMUM_SUITE_TESTS = 25;

  private static final String HEAP = "96m";

  @TempDir static Path work;

  private static PackagedServer server;
  private static FakeGitHub gitHub;
  private static String writer;
  private static String reader;
  private static String outsider;

  @BeforeAll
  static void start() throws IOException {
    writer = "writer-" + randomHex(16);
    reader = "reader-" + randomHex(16);
    outsider = "out-" + randomHex(16);
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(
        tokens,
        String.join(
            "\n",
            "# TOKEN USER REPOS ACCESS, written by MemoryStoresSuiteIT",
            writer + " suite-writer " + OWNER + "/* write",
            reader + " suite-reader " + OWNER + "/* read",
            outsider + " suite-outsider someone-else/* write",
            ""),
        UTF_8);
    // GitHub login beside the static tokens (looked up first), as on a team's deployment: the
    // GitHub-token listing test uses the fake's users.
    gitHub = new FakeGitHub();
    server =
        PackagedServer.start(
            work.resolve("data"),
            work.resolve("server.log"),
            Map.of(
                "TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString(),
                "TMEM_AUTH_GITHUB_CLIENT_ID", "Iv1.stores0suite0id",
                "TMEM_AUTH_GITHUB_API_URL", gitHub.apiUrl()),
            HEAP);
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      if (gitHub != null) {
        gitHub.close();
      }
    }
  }

  /**
   * The static-token suite cannot cover this: a GitHub user's store list is GitHub's {@code GET
   * /user/repos} (the fake lists named grants only), read through the official SDK.
   */
  @Test
  void aGitHubTokenListsTheStoresOfTheRepositoriesGitHubListsForIt() {
    String visible = OWNER + "/github-listed-" + randomHex(4);
    String hidden = OWNER + "/github-hidden-" + randomHex(4);
    MemoryStoreService asWriter = sdk(writer);
    String visibleStore = asWriter.create(storeFor(visible)).id();
    String hiddenStore = asWriter.create(storeFor(hidden)).id();
    String token = "gho_" + randomHex(16);
    gitHub.addUser(token, "stores-github-reader", 7_001);
    gitHub.grant("stores-github-reader", visible, "read");

    List<String> listed = new ArrayList<>();
    sdk(token)
        .list(MemoryStoreListParams.builder().limit(100).build())
        .autoPager()
        .forEach(store -> listed.add(store.id()));

    assertThat(listed).contains(visibleStore).doesNotContain(hiddenStore);
    assertThat(sdk(token).retrieve(visibleStore).id()).isEqualTo(visibleStore);
  }

  private static MemoryStoreService sdk(String token) {
    return AnthropicOkHttpClient.builder()
        .baseUrl(server.url().toString())
        .authToken(token)
        .maxRetries(0)
        .build()
        .beta()
        .memoryStores();
  }

  private static MemoryStoreCreateParams storeFor(String repo) {
    return MemoryStoreCreateParams.builder()
        .name(repo)
        .metadata(
            MemoryStoreCreateParams.Metadata.builder()
                .putAdditionalProperty("repo", JsonValue.from(repo))
                .build())
        .build();
  }

  @Test
  void thePackagedServerPassesTheMemoryStoresSuite() throws IOException {
    TestExecutionSummary summary = runSuite();
    List<String> failures = new ArrayList<>();
    for (TestExecutionSummary.Failure failure : summary.getFailures()) {
      failures.add(
          SuiteRun.testName(failure.getTestIdentifier(), SUITE_PACKAGE)
              + ": "
              + failure.getException());
    }
    if (!failures.isEmpty()) {
      List<String> log = server.logLines();
      System.out.println(
          "End of the server's log:\n"
              + String.join("\n", log.subList(Math.max(0, log.size() - 60), log.size())));
    }
    assertThat(failures).as("Memory Stores suite failures against the packaged server").isEmpty();
    assertThat(summary.getTestsSucceededCount())
        .as("tests of the Memory Stores suite that ran and passed")
        .isGreaterThanOrEqualTo(MINIMUM_SUITE_TESTS);
  }

  /** The SDK's okhttp 4 is excluded here too: the suite runs on the project's one okhttp. */
  @Test
  void theSuiteRunsOnOneOkHttp() throws IOException {
    List<java.net.URL> copies =
        java.util.Collections.list(
            getClass().getClassLoader().getResources("okhttp3/OkHttpClient.class"));
    assertThat(copies).as("jars holding okhttp3.OkHttpClient").hasSize(1);
    assertThat(copies.getFirst().toString()).contains("okhttp-jvm");
  }

  @Test
  void a48MegabyteStoreExportsWholeFromA96MegabyteHeap() throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    String repo = OWNER + "/export-" + randomHex(4);
    int memories = 2_000;
    int perPut = 40;
    String filler = "0123456789abcdef".repeat(24 * 1024 / 16 - 1);
    for (int first = 0; first < memories; first += perPut) {
      Map<String, String> entries = new LinkedHashMap<>();
      for (int i = first; i < first + perPut; i++) {
        entries.put("export/%04d.md".formatted(i), "memory %04d\n".formatted(i) + filler);
      }
      HttpResponse<String> put =
          http.send(
              request("/api/claude_code/team_memory?repo=" + repo)
                  .header("Content-Type", "application/json")
                  .PUT(
                      HttpRequest.BodyPublishers.ofByteArray(
                          ProtocolJson.mapper().writeValueAsBytes(Map.of("entries", entries))))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as("PUT %s", put.body()).isEqualTo(200);
    }
    String store =
        ProtocolJson.mapper()
            .readTree(
                http.send(
                        request("/api/claude_code/team_memory/store?repo=" + repo).GET().build(),
                        HttpResponse.BodyHandlers.ofString())
                    .body())
            .get("id")
            .asText();

    HttpResponse<Stream<String>> export =
        http.send(
            request("/v1/memory_stores/" + store + "/memories/export").GET().build(),
            HttpResponse.BodyHandlers.ofLines());

    assertThat(export.statusCode()).isEqualTo(200);
    long memoryLines = 0;
    long contentChars = 0;
    JsonNode last = null;
    try (Stream<String> lines = export.body()) {
      for (String line : (Iterable<String>) lines::iterator) {
        last = ProtocolJson.mapper().readTree(line);
        if (last.get("type").asText().equals("memory")) {
          memoryLines++;
          contentChars += last.get("content").asText().length();
        }
      }
    }
    assertThat(memoryLines).isEqualTo(memories);
    assertThat(contentChars).isGreaterThan(48_000_000L);
    assertThat(last).isNotNull();
    assertThat(last.toString())
        .isEqualTo("{\"type\":\"complete\",\"memory_count\":2000,\"error_count\":0}");
    assertThat(server.logLines()).noneMatch(line -> line.contains("OutOfMemoryError"));
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(server.url() + path))
        .timeout(Duration.ofMinutes(2))
        .header("Authorization", "Bearer " + writer);
  }

  private static TestExecutionSummary runSuite() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(SuiteConfig.URL, server.url().toString());
    properties.put(SuiteConfig.OWNER, OWNER);
    properties.put(SuiteConfig.WRITER_TOKEN, writer);
    properties.put(SuiteConfig.READER_TOKEN, reader);
    properties.put(SuiteConfig.OUTSIDER_TOKEN, outsider);
    return SuiteRun.run("Memory Stores suite", SUITE_PACKAGE, properties);
  }

  private static String randomHex(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }
}
