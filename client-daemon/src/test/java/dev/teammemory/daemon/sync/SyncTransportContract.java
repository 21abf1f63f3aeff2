package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static dev.teammemory.daemon.testing.SyncFixture.hasContent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.DeleteResponse;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two daemons on one real server through a recording proxy, once per transport: file by file on the
 * Memory Stores API ({@link PerFileTransportIT}) and whole-repository {@code team_memory} against a
 * server without that API ({@link TeamMemoryTransportIT}). Creates, updates, deletes (confirmed,
 * held, released, refused), renames, conflicts, concurrency, restarts, a 200 KB file, paths only
 * the store API refuses and the secret guard.
 */
abstract class SyncTransportContract {

  static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Duration DELETE_DELAY = Duration.ofMillis(700);

  /** The 30 s of the daemon shortened, and held deletes looked at twice a second. */
  private static final SyncSettings SETTINGS =
      SyncFixture.FAST.withDeleteDelay(DELETE_DELAY).withPollInterval(Duration.ofMillis(500));

  static final String SECRET = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa";

  static ServerProcess server;

  @TempDir Path root;
  RecordingProxy proxy;
  SyncFixture fixture;
  String repo;
  TeamMemoryClient reader;

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

  /** True when files go one by one through the Memory Stores API. */
  abstract boolean perFile();

  /** The proxy the daemons talk to, playing the server this transport needs. */
  abstract RecordingProxy proxyFor(String serverUrl) throws java.io.IOException;

  @BeforeEach
  void setUp(TestInfo test) throws Exception {
    proxy = proxyFor(server.url());
    fixture = new SyncFixture(root);
    String name = test.getTestMethod().orElseThrow().getName().toLowerCase();
    repo = "acme/" + name.substring(0, Math.min(30, name.length()));
    reader = fixture.client(server.url(), ServerProcess.READER);
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
    proxy.close();
  }

  private SyncEngine daemon(String name, String token, SyncSettings settings) throws Exception {
    return fixture.daemon(name, repo, proxy.url(), token, settings);
  }

  /** Alice and Bob both hold {@code files}, written by Alice. */
  SyncEngine[] bothHold(Map<String, String> files) throws Exception {
    SyncEngine alice = daemon("alice", ServerProcess.ALICE, SETTINGS);
    SyncEngine bob = daemon("bob", ServerProcess.BOB, SETTINGS);
    for (Map.Entry<String, String> file : files.entrySet()) {
      Files.writeString(fixture.teamDir("alice").resolve(file.getKey()), file.getValue());
    }
    await(
        "bob has alice's files",
        DEADLINE,
        () ->
            files.entrySet().stream()
                .allMatch(
                    file ->
                        hasContent(
                            fixture.teamDir("bob").resolve(file.getKey()), file.getValue())));
    await(
        "alice's ledger agrees on them",
        DEADLINE,
        () -> alice.state().syncedChecksums().keySet().containsAll(files.keySet()));
    return new SyncEngine[] {alice, bob};
  }

  @Test
  void aFileDeletedHereGoesFromTheServerAndFromTheTeammateAfterTheSecondScan() throws Exception {
    bothHold(Map.of("old.md", "obsolete\n", "keep.md", "still true\n"));

    Files.delete(fixture.teamDir("alice").resolve("old.md"));

    await("the server lost old.md", DEADLINE, () -> !entries(reader, repo).containsKey("old.md"));
    await(
        "bob's copy went too",
        DEADLINE,
        () -> !Files.exists(fixture.teamDir("bob").resolve("old.md")));
    assertThat(entries(reader, repo)).containsEntry("keep.md", "still true\n");
    assertThat(fixture.teamDir("bob").resolve("keep.md")).hasContent("still true\n");
  }

  @Test
  void anEmptiedFolderHoldsEveryDeleteUntilConfirmed() throws Exception {
    SyncEngine alice = bothHold(Map.of("a.md", "a\n", "b.md", "b\n"))[0];

    Files.delete(fixture.teamDir("alice").resolve("a.md"));
    Files.delete(fixture.teamDir("alice").resolve("b.md"));
    await("alice holds the deletes", DEADLINE, () -> alice.state().heldDeletes().isPresent());
    // The deletes have been due for two delete delays by the daemon's own record (it looks at a
    // hold twice a second), and still nothing is deleted on the server.
    Instant due =
        Instant.parse(alice.state().missingSince().get("a.md")).plus(DELETE_DELAY.multipliedBy(3));
    await("the held deletes to be long due", DEADLINE, () -> Instant.now().isAfter(due));
    assertThat(entries(reader, repo)).containsOnlyKeys("a.md", "b.md");
    assertThat(alice.state().heldDeletes().get().reason()).isEqualTo("the team folder is empty");
    assertThat(alice.state().heldDeletes().get().keys()).containsExactly("a.md", "b.md");

    DeleteConfirmation.request(fixture.stateDir("alice"));

    await("the held deletes went out", DEADLINE, () -> entries(reader, repo).isEmpty());
    await("the hold is over", DEADLINE, () -> alice.state().heldDeletes().isEmpty());
    await(
        "bob's copies went too",
        DEADLINE,
        () -> fixture.teamDir("bob").toFile().list().length == 0);
  }

  @Test
  void aFileATeammateChangedMeanwhileComesBackWithTheirVersionInsteadOfBeingDeleted()
      throws Exception {
    // A delay long enough for bob's edit to land first.
    SyncSettings slow = SETTINGS.withDeleteDelay(Duration.ofHours(1));
    SyncEngine alice = daemon("alice", ServerProcess.ALICE, slow);
    SyncEngine bob = daemon("bob", ServerProcess.BOB, slow);
    Files.writeString(fixture.teamDir("alice").resolve("plan.md"), "v1\n");
    Files.writeString(fixture.teamDir("alice").resolve("other.md"), "other\n");
    await(
        "bob has it",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("plan.md"), "v1\n"));

    Files.delete(fixture.teamDir("alice").resolve("plan.md"));
    await("alice noticed", DEADLINE, () -> alice.state().missingSince().containsKey("plan.md"));
    Files.writeString(fixture.teamDir("bob").resolve("plan.md"), "v2 by bob\n");

    await(
        "bob's version came back to alice",
        DEADLINE,
        () -> hasContent(fixture.teamDir("alice").resolve("plan.md"), "v2 by bob\n"));
    assertThat(entries(reader, repo)).containsEntry("plan.md", "v2 by bob\n");
    await("alice forgot the delete", DEADLINE, () -> alice.state().missingSince().isEmpty());
    assertThat(bob.state().missingSince()).isEmpty();
  }

  @Test
  void aDeleteExpectingContentATeammateReplacedIsRefusedAndChangesNothing() throws Exception {
    bothHold(Map.of("plan.md", "v1\n", "other.md", "other\n"));
    TeamMemoryClient bobClient = fixture.client(server.url(), ServerProcess.BOB);
    Files.writeString(fixture.teamDir("bob").resolve("plan.md"), "v2 by bob\n");
    await(
        "bob's edit landed",
        DEADLINE,
        () -> "v2 by bob\n".equals(entries(reader, repo).get("plan.md")));

    Response<DeleteResponse> stale =
        bobClient.deleteExpecting(repo, "plan.md", Checksums.ofContent("v1\n"));

    assertThat(stale).isInstanceOf(Response.Conflict.class);
    assertThat(entries(reader, repo)).containsEntry("plan.md", "v2 by bob\n");
  }

  @Test
  void aRenameIsADeleteAndACreate() throws Exception {
    bothHold(Map.of("draft.md", "the plan\n", "other.md", "other\n"));

    Files.move(
        fixture.teamDir("alice").resolve("draft.md"), fixture.teamDir("alice").resolve("plan.md"));

    await(
        "bob has the new name and not the old",
        DEADLINE,
        () ->
            hasContent(fixture.teamDir("bob").resolve("plan.md"), "the plan\n")
                && !Files.exists(fixture.teamDir("bob").resolve("draft.md")));
    assertThat(entries(reader, repo)).containsOnlyKeys("plan.md", "other.md");
  }

  @Test
  void deletesAndEditsMadeWhileStoppedGoOutAtTheNextStartWithoutARepush() throws Exception {
    SyncEngine alice =
        bothHold(Map.of("gone.md", "gone\n", "edited.md", "v1\n", "same.md", "s\n"))[0];
    alice.close();
    Files.delete(fixture.teamDir("alice").resolve("gone.md"));
    Files.writeString(fixture.teamDir("alice").resolve("edited.md"), "v2 offline\n");

    daemon("alice", ServerProcess.ALICE, SETTINGS);

    await(
        "the offline delete and edit reached the server",
        DEADLINE,
        () ->
            !entries(reader, repo).containsKey("gone.md")
                && "v2 offline\n".equals(entries(reader, repo).get("edited.md")));
    await(
        "and bob",
        DEADLINE,
        () ->
            !Files.exists(fixture.teamDir("bob").resolve("gone.md"))
                && hasContent(fixture.teamDir("bob").resolve("edited.md"), "v2 offline\n"));
    assertThat(fixture.teamDir("alice").resolve("gone.md")).doesNotExist();
  }

  @Test
  void anEditGoesByThisTransportAndReachesTheTeammate() throws Exception {
    SyncEngine alice = bothHold(Map.of("plan.md", "v1\n", "other.md", "other\n"))[0];
    proxy.clear();

    Files.writeString(fixture.teamDir("alice").resolve("plan.md"), "v2\n");

    await(
        "bob has the edit",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("plan.md"), "v2\n"));
    assertThat(alice.state().memoryStore().isPresent()).isEqualTo(perFile());
    boolean perFileWrites =
        proxy.exchanges().stream()
            .anyMatch(
                exchange ->
                    exchange.method().equals("POST") && exchange.target().startsWith("/v1/"));
    assertThat(perFileWrites).isEqualTo(perFile());
    assertThat(proxy.puts().isEmpty()).isEqualTo(perFile());
  }

  @Test
  void bothChangingTheSameFileRecordsAConflictAndKeepsBothSides() throws Exception {
    SyncEngine[] both = bothHold(Map.of("plan.md", "v1\n", "other.md", "other\n"));
    both[1].close();
    Files.writeString(fixture.teamDir("bob").resolve("plan.md"), "bob's offline edit\n");
    Files.writeString(fixture.teamDir("alice").resolve("plan.md"), "alice's edit\n");
    await(
        "alice's edit landed",
        DEADLINE,
        () -> "alice's edit\n".equals(entries(reader, repo).get("plan.md")));

    SyncEngine bob = daemon("bob", ServerProcess.BOB, SETTINGS);

    await(
        "bob's version won and the conflict is recorded",
        DEADLINE,
        () ->
            "bob's offline edit\n".equals(entries(reader, repo).get("plan.md"))
                && bob.state().conflicts().stream().anyMatch(c -> c.key().equals("plan.md")));
    assertThat(reader.history(repo, "plan.md"))
        .isInstanceOfSatisfying(
            Response.Ok.class,
            ok ->
                assertThat(((EntryHistory) ok.body()).versions())
                    .anyMatch(version -> "alice's edit\n".equals(version.content())));
  }

  @Test
  void writersOfDifferentFilesAtOnceNeverConflict() throws Exception {
    SyncEngine alice = daemon("alice", ServerProcess.ALICE, SETTINGS);
    SyncEngine bob = daemon("bob", ServerProcess.BOB, SETTINGS);
    await(
        "both started",
        DEADLINE,
        () -> alice.state().lastPull().isPresent() && bob.state().lastPull().isPresent());
    for (int i = 0; i < 10; i++) {
      Files.writeString(fixture.teamDir("alice").resolve("alice-" + i + ".md"), "a" + i);
      Files.writeString(fixture.teamDir("bob").resolve("bob-" + i + ".md"), "b" + i);
    }

    await("all 20 landed", DEADLINE, () -> entries(reader, repo).size() == 20);
    await(
        "each daemon holds all 20",
        DEADLINE,
        () ->
            fixture.teamDir("alice").toFile().list().length == 20
                && fixture.teamDir("bob").toFile().list().length == 20);
    assertThat(alice.state().conflicts()).isEmpty();
    assertThat(bob.state().conflicts()).isEmpty();
  }

  @Test
  void aFileOf200KbSyncs() throws Exception {
    bothHold(Map.of("other.md", "other\n"));
    String big = "x".repeat(199_999) + "\n";

    Files.writeString(fixture.teamDir("alice").resolve("big.md"), big);

    await(
        "bob has the big file",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("big.md"), big));
    // Over the Memory Stores API's 102,400 bytes it goes as a team_memory PUT either way.
    assertThat(proxy.puts()).isNotEmpty();
  }

  @Test
  void aFileWithASecretNeverLeavesTheMachine() throws Exception {
    SyncEngine alice = bothHold(Map.of("other.md", "other\n"))[0];

    // Moved in whole: a file created empty and then written could sync empty in between.
    Path written = Files.writeString(root.resolve("token.md"), "the token is " + SECRET + "\n");
    Files.move(
        written,
        fixture.teamDir("alice").resolve("token.md"),
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);

    await(
        "alice reports the file as not synced",
        DEADLINE,
        () ->
            alice.state().skipped().containsKey("token.md")
                && alice.state().skipped().get("token.md").reason() == SkipReason.SECRET);
    assertThat(entries(reader, repo)).doesNotContainKey("token.md");
    assertThat(proxy.anyBodyContains(SECRET)).isFalse();
  }

  @Test
  void aDaemonJoiningAFilledRepositoryStartsOverFromTheStreamedExportOnlyWhenItIsWhole()
      throws Exception {
    bothHold(Map.of("a.md", "a\n", "c.md", "c\n"));
    proxy.clear();
    proxy.cutExports(true);

    SyncEngine carol = daemon("carol", ServerProcess.BOB, SETTINGS);

    if (perFile()) {
      await(
          "carol's first pull failed on the cut export",
          DEADLINE,
          () -> carol.state().lastError() != null && carol.state().lastError().contains("export"));
      assertThat(fixture.teamDir("carol").resolve("a.md")).doesNotExist();
      assertThat(carol.state().memoryStore().orElseThrow().version()).isZero();
      proxy.cutExports(false);
    }
    // The files land before the pull records the store's version: wait for both, or a loaded
    // machine reads the state in between.
    await(
        "carol has both files and has recorded the pull",
        DEADLINE,
        () ->
            hasContent(fixture.teamDir("carol").resolve("a.md"), "a\n")
                && hasContent(fixture.teamDir("carol").resolve("c.md"), "c\n")
                && (!perFile()
                    || carol
                        .state()
                        .memoryStore()
                        .map(store -> store.version() > 0)
                        .orElse(false)));
    boolean exported =
        proxy.exchanges().stream()
            .anyMatch(
                exchange ->
                    exchange.method().equals("GET")
                        && exchange.target().endsWith("/memories/export")
                        && exchange.status() == 200);
    boolean wholeGet =
        proxy.exchanges().stream()
            .anyMatch(
                exchange ->
                    exchange.method().equals("GET")
                        && exchange.target().startsWith("/api/claude_code/team_memory?")
                        && !exchange.target().contains("view=")
                        && exchange.status() == 200);
    assertThat(exported).isEqualTo(perFile());
    assertThat(wholeGet).isEqualTo(!perFile());
    if (perFile()) {
      assertThat(carol.state().memoryStore().orElseThrow().version()).isPositive();
      assertThat(carol.state().memoryStore().orElseThrow().memoryIds())
          .containsOnlyKeys("a.md", "c.md");
    }
  }

  @Test
  void aPathOnlyTheStoreApiRefusesStillSyncsByATeamMemoryPut() throws Exception {
    bothHold(Map.of("other.md", "other\n"));
    proxy.clear();
    // Valid team_memory keys that break a rule only the Memory Stores API has: 21 segments (it
    // takes 20), a zero-width space (a format character), an "é" as "e" + combining accent (NFD).
    String deep = "d/".repeat(20) + "deep.md";
    String formatCharacter = "zero\u200Bwidth.md";
    String decomposed = "caf\u0065\u0301.md";
    Map<String, String> files =
        Map.of(deep, "deep\n", formatCharacter, "hidden\n", decomposed, "coffee\n");

    for (Map.Entry<String, String> file : files.entrySet()) {
      Path path = fixture.teamDir("alice").resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.writeString(path, file.getValue());
    }

    await(
        "bob has all three",
        DEADLINE,
        () ->
            files.entrySet().stream()
                .allMatch(
                    file ->
                        hasContent(
                            fixture.teamDir("bob").resolve(file.getKey()), file.getValue())));
    assertThat(entries(reader, repo)).containsAllEntriesOf(files);
    assertThat(proxy.puts()).isNotEmpty();
  }
}
