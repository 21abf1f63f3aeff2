package dev.teammemory.server;

import static dev.teammemory.server.ServerCalls.encode;
import static dev.teammemory.server.ServerCalls.hex;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.server.github.FakeGitHub;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's hostile cases of bad input and secrets, against the packaged server at {@code
 * -Xmx256m}, each tried by a writer of {@code hostile/*} alone: text that is not Unicode or holds a
 * NUL, sizes that would count negative, secrets in keys, paths and a store's fields or behind an
 * allow comment or an underscore, and a narrower GitHub token of a user. Each is refused with a
 * {@code 4xx} in its API's envelope, stores nothing, and leaves a neighbour's repository (another
 * organisation's) as it was, with the server answering health throughout.
 */
class HostileInputIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOSTILE = "hostile-" + hex(16);
  private static final String NEIGHBOUR = "neighbour-" + hex(16);
  private static final String HOSTILE_REPO = "hostile/target";
  private static final String NEIGHBOUR_REPO = "other/neighbour";
  private static final String TEAM_MEMORY = "/api/claude_code/team_memory";
  private static final int MAX_REPOSITORY_BYTES = 300_000;

  /** Tokens of their rules' formats, made per run, so that no scanner flags this file. */
  private static final String GITHUB_TOKEN = "ghp_" + hex(18);

  private static final String AWS_KEY_ID = "AKIA" + "J7Q2ZKXW4MRT6PLN";

  @TempDir static Path work;

  private static FakeGitHub gitHub;
  private static PackagedServer server;
  private static String hostileStore;
  private String neighbourBefore;

  @BeforeAll
  static void start() throws Exception {
    gitHub = new FakeGitHub();
    Path tokens = work.resolve("tokens.txt");
    Files.writeString(
        tokens,
        HOSTILE + " mallory hostile/* write\n" + NEIGHBOUR + " nora other/* write\n",
        UTF_8);
    server =
        PackagedServer.start(
            work.resolve("data"),
            work.resolve("server.log"),
            Map.of(
                "TMEM_AUTH_STATIC_TOKENS_FILE", tokens.toString(),
                "TMEM_AUTH_GITHUB_CLIENT_ID", "Iv1.hostile0input",
                "TMEM_AUTH_GITHUB_API_URL", gitHub.apiUrl(),
                "TMEM_LIMITS_MAX_REPOSITORY_BYTES", Integer.toString(MAX_REPOSITORY_BYTES)),
            "256m");
    expect(
        200,
        send(
            NEIGHBOUR,
            "PUT",
            TEAM_MEMORY + "?repo=" + encode(NEIGHBOUR_REPO),
            "{\"entries\":{\"MEMORY.md\":\"# Neighbours\\n\",\"notes/deploy.md\":\"Deploy on Fridays.\\n\"}}"));
    expect(
        200,
        send(
            HOSTILE,
            "PUT",
            TEAM_MEMORY + "?repo=" + encode(HOSTILE_REPO),
            entries("seed.md", "seed")));
    HttpResponse<String> store =
        send(HOSTILE, "POST", "/v1/memory_stores", "{\"name\":\"" + HOSTILE_REPO + "\"}");
    expect(200, store);
    hostileStore = JSON.readTree(store.body()).path("id").asText();
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) {
      server.close();
    }
    if (gitHub != null) {
      gitHub.close();
    }
  }

  @BeforeEach
  void rememberTheNeighbour() throws Exception {
    neighbourBefore = neighbour();
  }

  @AfterEach
  void theNeighbourIsUnchangedAndTheServerAnswers() throws Exception {
    assertThat(send(null, "GET", "/q/health/ready", null).statusCode()).isEqualTo(200);
    assertThat(neighbour()).isEqualTo(neighbourBefore);
  }

  @Test
  void aNulInStoreApiContentIs400AndStoresNothing() throws Exception {
    HttpResponse<String> refused =
        send(HOSTILE, "POST", memories(), "{\"path\":\"/nul.md\",\"content\":\"a\\u0000b\"}");

    assertStoreApiRefusal(
        refused, "content holds a NUL character (U+0000), which the server cannot store");
    assertThat(hostilePaths()).doesNotContain("/nul.md");
  }

  @Test
  void loneSurrogatesCannotSlipContentPastTheRepositoryLimit() throws Exception {
    String almost100Kb = "a".repeat(99_990);
    for (int i = 0; i < 8; i++) {
      HttpResponse<String> refused =
          send(
              HOSTILE,
              "POST",
              memories(),
              "{\"path\":\"/big-" + i + ".md\",\"content\":\"" + almost100Kb + "\\ud800\"}");
      assertStoreApiRefusal(
          refused, "content holds an unpaired UTF-16 surrogate, which is not Unicode text");
    }

    assertThat(hostilePaths()).noneMatch(path -> path.startsWith("/big-"));
    JsonNode hostile = JSON.readTree(get(HOSTILE, HOSTILE_REPO).body());
    long bytes = 0;
    for (JsonNode content : hostile.path("content").path("entries")) {
      bytes += content.asText().getBytes(UTF_8).length;
    }
    assertThat(bytes).isLessThanOrEqualTo(MAX_REPOSITORY_BYTES);
  }

  @Test
  void aPathWithALoneSurrogateIs400AndNotStoredAsAQuestionMark() throws Exception {
    HttpResponse<String> refused =
        send(HOSTILE, "POST", memories(), "{\"path\":\"/x\\ud800.md\",\"content\":\"x\"}");

    assertStoreApiRefusal(refused, "path must be Unicode text, without unpaired UTF-16 surrogates");
    assertThat(hostilePaths()).doesNotContain("/x?.md");
  }

  @Test
  void secretsInKeysPathsAndAStoresFieldsAreRefused() throws Exception {
    HttpResponse<String> key =
        send(
            HOSTILE,
            "PUT",
            TEAM_MEMORY + "?repo=" + encode(HOSTILE_REPO),
            entries("notes/" + GITHUB_TOKEN + ".md", "harmless"));
    expect(422, key);
    assertThat(key.body()).doesNotContain(GITHUB_TOKEN).contains("notes/[REDACTED].md");

    assertSecretRefused(
        send(
            HOSTILE,
            "POST",
            memories(),
            "{\"path\":\"/testing/" + AWS_KEY_ID + ".md\",\"content\":\"x\"}"),
        "memory path");
    HttpResponse<String> created =
        send(HOSTILE, "POST", memories(), "{\"path\":\"/rename-me.md\",\"content\":\"x\"}");
    expect(200, created);
    String id = JSON.readTree(created.body()).path("id").asText();
    assertSecretRefused(
        send(
            HOSTILE,
            "POST",
            memories() + "/" + id,
            "{\"path\":\"/testing/" + AWS_KEY_ID + ".md\"}"),
        "memory path");
    assertSecretRefused(
        send(
            HOSTILE,
            "POST",
            "/v1/memory_stores/" + hostileStore,
            "{\"description\":\"token " + GITHUB_TOKEN + "\"}"),
        "memory store description");
    assertSecretRefused(
        send(
            HOSTILE,
            "POST",
            "/v1/memory_stores/" + hostileStore,
            "{\"metadata\":{\"ci\":\"" + GITHUB_TOKEN + "\"}}"),
        "memory store metadata");
    assertSecretRefused(
        send(
            HOSTILE,
            "POST",
            "/v1/memory_stores",
            "{\"name\":\"n " + GITHUB_TOKEN + "\",\"metadata\":{\"repo\":\"hostile/other\"}}"),
        "memory store name");

    assertThat(hostilePaths())
        .contains("/rename-me.md")
        .noneMatch(path -> path.contains(AWS_KEY_ID));
    assertThat(get(HOSTILE, HOSTILE_REPO).body()).doesNotContain(GITHUB_TOKEN);
  }

  @Test
  void anAllowCommentAnUnderscoreOrAnAwsSecretKeyAssignmentDoNotGetPastTheScan() throws Exception {
    String put = TEAM_MEMORY + "?repo=" + encode(HOSTILE_REPO);
    for (String content :
        new String[] {
          "t = " + GITHUB_TOKEN + " # gitleaks:allow",
          "the token __" + GITHUB_TOKEN + "__ in bold",
          "TOKEN_" + GITHUB_TOKEN,
          "aws_secret_access_key = kT9pQ2vX7mL4sR8nB3wE6yH1jF5dC0gA2zU7iO4e"
        }) {
      HttpResponse<String> refused = send(HOSTILE, "PUT", put, entries("notes.md", content));
      expect(422, refused);
      assertThat(refused.body()).doesNotContain(GITHUB_TOKEN);
    }
    assertThat(
            JSON.readTree(get(HOSTILE, HOSTILE_REPO).body())
                .path("content")
                .path("entries")
                .has("notes.md"))
        .isFalse();
  }

  @Test
  void aNarrowerGitHubTokenOfAUserNeverBorrowsABroaderTokensAnswer() throws Exception {
    String broad = "gho_broad" + hex(8);
    String narrow = "github_pat_narrow" + hex(8);
    gitHub.addUser(broad, "mallory-gh", 5_150);
    gitHub.addNarrowToken(narrow, "mallory-gh", 5_150, "hostile/reached");
    gitHub.grant("mallory-gh", "hostile/reached", "write");
    gitHub.grant("mallory-gh", "hostile/beyond", "write");

    expect(
        200, send(broad, "PUT", TEAM_MEMORY + "?repo=hostile%2Fbeyond", entries("a.md", "broad")));
    expect(
        404,
        send(narrow, "PUT", TEAM_MEMORY + "?repo=hostile%2Fbeyond", entries("a.md", "narrow")));
    expect(404, get(narrow, "hostile/beyond"));
    assertThat(get(broad, "hostile/beyond").body()).contains("broad").doesNotContain("narrow");
  }

  private static void assertStoreApiRefusal(HttpResponse<String> refused, String message)
      throws IOException {
    expect(400, refused);
    JsonNode error = JSON.readTree(refused.body());
    assertThat(error.path("type").asText()).isEqualTo("error");
    assertThat(error.path("error").path("type").asText()).isEqualTo("invalid_request_error");
    assertThat(error.path("error").path("message").asText()).isEqualTo(message);
  }

  private static void assertSecretRefused(HttpResponse<String> refused, String field)
      throws IOException {
    assertStoreApiRefusal(
        refused,
        field
            + " appears to contain a credential or API key; remove it before writing. If the"
            + " credential is real, rotate it.");
    assertThat(refused.body()).doesNotContain(GITHUB_TOKEN).doesNotContain(AWS_KEY_ID);
  }

  private static String memories() {
    return "/v1/memory_stores/" + hostileStore + "/memories";
  }

  private static List<String> hostilePaths() throws Exception {
    HttpResponse<String> listed = send(HOSTILE, "GET", memories() + "?limit=100", null);
    expect(200, listed);
    List<String> paths = new ArrayList<>();
    JSON.readTree(listed.body())
        .path("data")
        .forEach(item -> paths.add(item.path("path").asText()));
    return paths;
  }

  /** The neighbour's repository as its owner reads it: checksum and every entry. */
  private static String neighbour() throws Exception {
    HttpResponse<String> read = get(NEIGHBOUR, NEIGHBOUR_REPO);
    expect(200, read);
    return read.body();
  }

  private static HttpResponse<String> get(String token, String repo) throws Exception {
    return send(token, "GET", TEAM_MEMORY + "?repo=" + encode(repo), null);
  }

  private static String entries(String key, String content) {
    return "{\"entries\":{\"" + key + "\":\"" + content + "\"}}";
  }

  private static HttpResponse<String> send(String token, String method, String path, String body)
      throws IOException, InterruptedException {
    return ServerCalls.send(server.url(), token, method, path, body, Map.of());
  }

  private static void expect(int status, HttpResponse<String> response) {
    assertThat(response.statusCode())
        .as(response.request().method() + " " + response.request().uri() + ": " + response.body())
        .isEqualTo(status);
  }
}
