package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two daemons on one repository that requires review, against the real server: the author's change
 * waits on the author's disk without being pushed again, reaches the teammate once a reviewer
 * approved it through the review endpoint, and a rejected change comes back to the author as the
 * approved version with the author's own kept among the daemon's copies; the author's state lists
 * what waits and what was rejected, with the reviewer's comment, for {@code tmem status}.
 */
class ReviewSyncIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static ServerProcess server;

  @TempDir Path root;
  private SyncFixture fixture;
  private RecordingProxy aliceProxy;
  private String repo;

  @BeforeAll
  static void startServer() throws Exception {
    server = ServerProcess.start(Files.createTempDirectory("tmem-server-"));
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void setUp(TestInfo test) throws Exception {
    fixture = new SyncFixture(root);
    // Alice's daemon talks through a proxy that records what it sends: her waiting change must not
    // go out again.
    aliceProxy = RecordingProxy.start(server.url());
    String name = test.getTestMethod().orElseThrow().getName().toLowerCase();
    repo = "acme/" + name.substring(0, Math.min(30, name.length()));
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
    aliceProxy.close();
  }

  @Test
  void aChangeWaitsOnTheAuthorsDiskIsApprovedAndArrivesAtTheTeammate() throws Exception {
    // alice syncs the whole repository (team_memory: her proxy hides the store API), bob per file;
    // the next test runs alice per file.
    aliceProxy.withoutMemoryStores();
    fixture.daemon("alice", repo, aliceProxy.url(), ServerProcess.ALICE);
    fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    Path aliceFile = write("alice", "deploys.md", "Deploys go out on Tuesdays.\n");
    Path bobFile = fixture.teamDir("bob").resolve("deploys.md");
    await("bob has the first version", DEADLINE, () -> hasContent(bobFile, "Tuesdays"));
    requireReview();

    Files.writeString(aliceFile, "Deploys go out on Fridays.\n");
    JsonNode waiting = awaitOne("pending", "deploys.md");
    assertThat(waiting.path("author").asText()).isEqualTo("alice");
    await(
        "alice's state lists her waiting change",
        DEADLINE,
        () -> OwnReviews.load(fixture.stateDir("alice")).waiting().size() == 1);
    assertThat(OwnReviews.load(fixture.stateDir("alice")).waiting().getFirst().key())
        .isEqualTo("deploys.md");

    // A sync point: the reviewer writes another file (approved as it is made) and alice's daemon
    // pulls it, so it has been through a pull and a push cycle since her change went out.
    int sentBefore = sent("Fridays");
    HttpResponse<String> other =
        send(
            api("")
                .header("Authorization", "Bearer " + ServerProcess.REVIEWER)
                .header("Content-Type", "application/json")
                .PUT(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"entries\":{\"other.md\":\"Unrelated.\\n\"}}")));
    assertThat(other.statusCode()).as(other.body()).isEqualTo(200);
    await(
        "alice has bob's other file",
        DEADLINE,
        () -> hasContent(fixture.teamDir("alice").resolve("other.md"), "Unrelated."));
    assertThat(Files.readString(aliceFile)).isEqualTo("Deploys go out on Fridays.\n");
    assertThat(sent("Fridays")).as("the waiting change is not pushed again").isEqualTo(sentBefore);
    assertThat(reviews(ServerProcess.REVIEWER, "pending"))
        .extracting(review -> review.path("id").asText())
        .containsExactly(waiting.path("id").asText());
    // The teammate still has the approved version: needs the per-view reads (issue 27 point 2).
    await(
        "bob has the reviewer's file",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("other.md"), "Unrelated."));
    assertThat(Files.readString(bobFile)).isEqualTo("Deploys go out on Tuesdays.\n");

    decide(waiting.path("id").asText(), "approve", "Fridays it is.");
    await("bob gets the approved change", DEADLINE, () -> hasContent(bobFile, "Fridays"));
    await(
        "alice's state no longer lists it as waiting",
        DEADLINE,
        () -> OwnReviews.load(fixture.stateDir("alice")).waiting().isEmpty());
    assertThat(Files.readString(aliceFile)).isEqualTo("Deploys go out on Fridays.\n");
  }

  @Test
  void aRejectedChangeComesBackAsTheApprovedVersionWithTheAuthorsCopyKept() throws Exception {
    fixture.daemon("alice", repo, aliceProxy.url(), ServerProcess.ALICE);
    Path aliceFile = write("alice", "deploys.md", "Deploys go out on Tuesdays.\n");
    await("the first version is on the server", DEADLINE, () -> serverHas("Tuesdays"));
    requireReview();
    Instant before = Instant.now().minusSeconds(1);

    Files.writeString(aliceFile, "Deploys go out whenever.\n");
    JsonNode waiting = awaitOne("pending", "deploys.md");
    decide(waiting.path("id").asText(), "reject", "We agreed on Tuesdays.");

    await(
        "alice's file is the approved version again",
        DEADLINE,
        () -> hasContent(aliceFile, "Tuesdays"));
    assertThat(Files.readString(aliceFile)).isEqualTo("Deploys go out on Tuesdays.\n");
    List<KeptCopies.Kept> kept =
        KeptCopies.of(fixture.stateDir("alice"), System.getenv()).keptSince(before);
    assertThat(kept).extracting(KeptCopies.Kept::key).contains("deploys.md");
    assertThat(
            kept.stream()
                .filter(copy -> copy.key().equals("deploys.md"))
                .map(copy -> read(copy.file())))
        .contains("Deploys go out whenever.\n");

    await(
        "alice's state lists the rejection with the comment",
        DEADLINE,
        () -> !OwnReviews.load(fixture.stateDir("alice")).rejected().isEmpty());
    OwnReviews reviews = OwnReviews.load(fixture.stateDir("alice"));
    assertThat(reviews.waiting()).isEmpty();
    assertThat(reviews.rejected().getFirst().key()).isEqualTo("deploys.md");
    assertThat(reviews.rejected().getFirst().reviewer()).isEqualTo("rita");
    assertThat(reviews.rejected().getFirst().comment()).isEqualTo("We agreed on Tuesdays.");
    // The restored version is not pushed back as alice's: the server still holds the approved text
    // and nothing waits.
    assertThat(reviews(ServerProcess.REVIEWER, "pending")).isEmpty();
    assertThat(serverHas("Tuesdays")).isTrue();
  }

  // ----------------------------------------------------------------------------- helpers

  private Path write(String who, String key, String content) throws IOException {
    Path file = fixture.teamDir(who).resolve(key);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return file;
  }

  private static boolean hasContent(Path file, String part) {
    try {
      return Files.isRegularFile(file) && Files.readString(file).contains(part);
    } catch (IOException e) {
      return false;
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Requests from alice's daemon whose body carries {@code text}. */
  private int sent(String text) {
    return (int)
        aliceProxy.exchanges().stream()
            .filter(exchange -> !exchange.method().equals("GET"))
            .filter(exchange -> exchange.body().contains(text))
            .count();
  }

  private boolean serverHas(String part) {
    try {
      String body =
          send(HttpRequest.newBuilder(api("").build().uri())
                  .header("Authorization", "Bearer " + ServerProcess.REVIEWER)
                  .GET())
              .body();
      return body.contains(part);
    } catch (Exception e) {
      return false;
    }
  }

  private void requireReview() throws Exception {
    HttpResponse<String> switched =
        send(
            api("/settings")
                .header("Authorization", "Bearer " + ServerProcess.ADMIN)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"review\":\"required\"}")));
    assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
  }

  private List<JsonNode> reviews(String token, String status) throws Exception {
    HttpResponse<String> listed =
        send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url()
                            + "/api/claude_code/team_memory/reviews?status="
                            + status
                            + "&repo="
                            + URLEncoder.encode(repo, UTF_8)))
                .header("Authorization", "Bearer " + token)
                .GET());
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    List<JsonNode> found = new java.util.ArrayList<>();
    JSON.readTree(listed.body()).path("data").forEach(found::add);
    return found;
  }

  private JsonNode awaitOne(String status, String key) {
    JsonNode[] found = new JsonNode[1];
    await(
        "a " + status + " change of " + key,
        DEADLINE,
        () -> {
          try {
            List<JsonNode> listed = reviews(ServerProcess.REVIEWER, status);
            found[0] =
                listed.stream()
                    .filter(review -> review.path("key").asText().equals(key))
                    .findFirst()
                    .orElse(null);
            return found[0] != null;
          } catch (Exception e) {
            return false;
          }
        });
    return found[0];
  }

  private void decide(String id, String decision, String comment) throws Exception {
    HttpResponse<String> decided =
        send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url()
                            + "/api/claude_code/team_memory/reviews/"
                            + id
                            + "?repo="
                            + URLEncoder.encode(repo, UTF_8)))
                .header("Authorization", "Bearer " + ServerProcess.REVIEWER)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(
                            java.util.Map.of("decision", decision, "comment", comment)))));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);
  }

  private HttpRequest.Builder api(String suffix) {
    return HttpRequest.newBuilder(
            URI.create(
                server.url()
                    + "/api/claude_code/team_memory"
                    + suffix
                    + "?repo="
                    + URLEncoder.encode(repo, UTF_8)))
        .timeout(Duration.ofSeconds(30));
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
