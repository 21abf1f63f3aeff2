package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static dev.teammemory.daemon.testing.SyncFixture.hasContent;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.run.Daemon;
import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** Two daemons (sync engines in this JVM) on two team folders against one real server. */
class TeamSyncIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String SECRET = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa";

  private static Path serverData;
  private static ServerProcess server;

  @TempDir Path root;
  private SyncFixture fixture;
  private RecordingProxy proxy;
  private String repo;

  @BeforeAll
  static void startServer() throws Exception {
    serverData = Files.createTempDirectory("tmem-server-");
    server = ServerProcess.start(serverData);
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
    // The proxied tests count team_memory PUTs and 412s: the proxy plays a server without the
    // Memory Stores API. PerFileTransportIT covers the same ground file by file.
    proxy = RecordingProxy.start(server.url()).withoutMemoryStores();
    String name = test.getTestMethod().orElseThrow().getName().toLowerCase();
    repo = "acme/" + name.substring(0, Math.min(30, name.length()));
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
    proxy.close();
  }

  private static boolean startedUp(SyncEngine engine) {
    return engine.state().lastPull().isPresent();
  }

  @Test
  void theDaemonRunInProcessPushesAnEditAndFlushesWhatIsPendingWhenClosed() throws Exception {
    Path teamDir = Files.createDirectories(root.resolve("carol/team"));
    Path home = root.resolve("carol-home");
    Environment environment =
        new Environment(
            Map.of(
                "XDG_STATE_HOME", home.resolve("state").toString(),
                "CLAUDE_CONFIG_DIR", home.resolve(".claude").toString()),
            home,
            home);
    ServerConnection connection =
        new ServerConnection(server.url(), () -> Optional.of(ServerProcess.ALICE));
    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.BOB);

    try (Daemon daemon =
        Daemon.open(
            environment,
            List.of(Project.unregistered(repo, teamDir)),
            connection,
            LanguageModel.fromEnvironment(Map.of("TMEM_OFFLINE", "1")),
            SyncFixture.FAST,
            Duration.ofHours(1))) {
      daemon.start();
      daemon.whenStarted().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
      Files.writeString(teamDir.resolve("decisions.md"), "ship on fridays\n");
      await(
          "the server has carol's file",
          DEADLINE,
          () -> "ship on fridays\n".equals(SyncFixture.entries(reader, repo).get("decisions.md")));
      Files.writeString(teamDir.resolve("pending.md"), "written just before the stop\n");
    }

    assertThat(SyncFixture.entries(reader, repo))
        .containsEntry("pending.md", "written just before the stop\n");
  }

  @Test
  void anEditReachesTheOtherDaemonAlsoInANewNestedFolder() throws Exception {
    SyncEngine alice = fixture.daemon("alice", repo, server.url(), ServerProcess.ALICE);
    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    await("both pulled", DEADLINE, () -> startedUp(alice) && startedUp(bob));

    Files.writeString(fixture.teamDir("alice").resolve("MEMORY.md"), "# Team memory\n");
    await(
        "bob sees alice's file",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("MEMORY.md"), "# Team memory\n"));

    Path nested = Files.createDirectories(fixture.teamDir("alice").resolve("testing/integration"));
    Files.writeString(nested.resolve("no-mocks.md"), "use the real server\n");
    await(
        "bob sees the file in alice's new nested folder",
        DEADLINE,
        () ->
            hasContent(
                fixture.teamDir("bob").resolve("testing/integration/no-mocks.md"),
                "use the real server\n"));

    Files.writeString(
        fixture.teamDir("bob").resolve("testing/integration/no-mocks.md"),
        "use the real server, always\n");
    await(
        "alice sees bob's edit",
        DEADLINE,
        () ->
            hasContent(
                fixture.teamDir("alice").resolve("testing/integration/no-mocks.md"),
                "use the real server, always\n"));
  }

  @Test
  void rapidEditsCoalesceIntoOnePush() throws Exception {
    SyncEngine alice = fixture.daemon("alice", repo, proxy.url(), ServerProcess.ALICE);
    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    await("both pulled", DEADLINE, () -> startedUp(alice) && startedUp(bob));
    // One change through first, so the push that follows the pull at start is over.
    Files.writeString(fixture.teamDir("alice").resolve("warm-up.md"), "ready\n");
    await(
        "bob sees the warm-up",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("warm-up.md"), "ready\n"));

    Path file = fixture.teamDir("alice").resolve("burst.md");
    for (int i = 1; i <= 20; i++) {
      Files.writeString(file, "edit " + i + "\n");
    }
    await(
        "bob sees the last edit",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("burst.md"), "edit 20\n"));

    // The proxy records a PUT before alice reads its response: wait for her to settle first.
    await("alice has nothing pending", DEADLINE, () -> alice.state().pendingKeys().isEmpty());
    assertThat(proxy.puts()).filteredOn(put -> put.body().contains("burst.md")).hasSize(1);
  }

  @Test
  void aThousandFilesPushInBatchesUnderTheLimit() throws Exception {
    Path team = Files.createDirectories(fixture.teamDir("alice"));
    for (int i = 0; i < 1000; i++) {
      Path file = team.resolve("topic-" + (i % 10)).resolve("note-" + i + ".md");
      Files.createDirectories(file.getParent());
      Files.writeString(file, ("note " + i + " ").repeat(100));
    }
    SyncEngine alice = fixture.daemon("alice", repo, proxy.url(), ServerProcess.ALICE);
    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    await(
        "the server holds all 1,000",
        DEADLINE,
        () -> SyncFixture.checksums(reader, repo).size() == 1000);

    // The server commits the last batch before the proxy has recorded it and alice has read the
    // response; once alice has settled her state, the proxy has recorded every PUT.
    await("alice has nothing pending", DEADLINE, () -> alice.state().pendingKeys().isEmpty());
    assertThat(proxy.puts()).hasSizeGreaterThanOrEqualTo(5);
    assertThat(proxy.puts())
        .allSatisfy(put -> assertThat(put.requestBody().length).isLessThanOrEqualTo(200_000));

    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    await(
        "bob has all 1,000",
        DEADLINE,
        () ->
            hasContent(
                fixture.teamDir("bob").resolve("topic-9/note-999.md"), "note 999 ".repeat(100)));
    // The last file lands before bob has recorded the pull in his state.
    await("bob recorded all 1,000", DEADLINE, () -> bob.state().syncedChecksums().size() == 1000);
  }

  @Test
  void aConcurrentWriterCausesA412AndThePushRecoversWithoutLosingEitherWrite() throws Exception {
    SyncEngine alice = fixture.daemon("alice", repo, proxy.url(), ServerProcess.ALICE);
    await("alice pulled", DEADLINE, () -> startedUp(alice));
    RecordingProxy.Hold hold = proxy.holdNext((method, target) -> method.equals("PUT"));

    Files.writeString(fixture.teamDir("alice").resolve("mine.md"), "alice\n");
    hold.awaitArrival(DEADLINE);
    TeamMemoryClient bob = fixture.client(server.url(), ServerProcess.BOB);
    assertThat(bob.put(repo, Map.of("theirs.md", "bob\n"), Optional.empty()))
        .isInstanceOf(Response.Ok.class);
    hold.release();

    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    await(
        "both writes are on the server",
        DEADLINE,
        () -> entries(reader, repo).keySet().containsAll(java.util.Set.of("mine.md", "theirs.md")));
    await("alice has nothing pending", DEADLINE, () -> alice.state().pendingKeys().isEmpty());
    assertThat(proxy.puts()).extracting(RecordingProxy.Exchange::status).contains(412, 200);
    assertThat(proxy.exchanges()).anyMatch(exchange -> exchange.target().contains("view=hashes"));
    await(
        "alice pulls bob's write",
        DEADLINE,
        () -> hasContent(fixture.teamDir("alice").resolve("theirs.md"), "bob\n"));
  }

  @Test
  void secretsNeverLeaveTheMachine() throws Exception {
    Path team = Files.createDirectories(fixture.teamDir("alice"));
    Files.writeString(team.resolve("leak.md"), "deploy with GITHUB_TOKEN=" + SECRET + "\n");
    Files.writeString(team.resolve("clean.md"), "nothing to see\n");
    SyncEngine alice = fixture.daemon("alice", repo, proxy.url(), ServerProcess.ALICE);
    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    await(
        "bob has the clean file",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("clean.md"), "nothing to see\n"));
    // An edit that keeps the secret is not sent either.
    Files.writeString(
        team.resolve("leak.md"), "deploy with GITHUB_TOKEN=" + SECRET + " (edited)\n");
    Files.writeString(team.resolve("clean.md"), "still nothing\n");
    await(
        "bob has the second clean edit",
        DEADLINE,
        () -> hasContent(fixture.teamDir("bob").resolve("clean.md"), "still nothing\n"));

    assertThat(proxy.anyBodyContains(SECRET)).isFalse();
    assertThat(proxy.anyBodyContains("ghp_")).isFalse();
    assertThat(fixture.teamDir("bob").resolve("leak.md")).doesNotExist();
    assertThat(alice.state().skipped().get("leak.md").inWords())
        .isEqualTo("contains a secret (rule github-pat)");
    try (Connection database = server.database()) {
      for (String table : new String[] {"memory_entry", "memory_entry_version"}) {
        try (PreparedStatement query =
            database.prepareStatement(
                "SELECT count(*) FROM "
                    + table
                    + " WHERE content LIKE ? OR entry_key = 'leak.md'")) {
          query.setString(1, "%ghp_%");
          try (ResultSet result = query.executeQuery()) {
            result.next();
            assertThat(result.getInt(1)).as(table).isZero();
          }
        }
      }
    }
  }

  @Test
  void aKeyChangedOnBothSidesKeepsTheLocalEditAndNamesTheTeammatesVersion() throws Exception {
    SyncEngine alice = fixture.daemon("alice", repo, server.url(), ServerProcess.ALICE);
    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    Path aliceFile = fixture.teamDir("alice").resolve("decisions.md");
    Path bobFile = fixture.teamDir("bob").resolve("decisions.md");
    Files.writeString(aliceFile, "base\n");
    await("bob has the base", DEADLINE, () -> hasContent(bobFile, "base\n"));
    Files.writeString(fixture.teamDir("alice").resolve("same.md"), "unchanged\n");
    Path same = fixture.teamDir("bob").resolve("same.md");
    await("bob has the unchanged file", DEADLINE, () -> hasContent(same, "unchanged\n"));
    bob.close();
    FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    Files.setLastModifiedTime(same, old);

    Files.writeString(aliceFile, "alice's edit\n");
    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    await(
        "alice's edit is on the server",
        DEADLINE,
        () -> "alice's edit\n".equals(entries(reader, repo).get("decisions.md")));
    Files.writeString(bobFile, "bob's edit, made while his daemon was stopped\n");

    SyncEngine bobAgain = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    await(
        "bob's edit wins on the server",
        DEADLINE,
        () ->
            "bob's edit, made while his daemon was stopped\n"
                .equals(entries(reader, repo).get("decisions.md")));
    await(
        "the conflict names alice's version",
        DEADLINE,
        () -> bobAgain.state().conflicts().stream().anyMatch(c -> c.theirVersion() > 0));

    SyncState.ConflictRecord conflict = bobAgain.state().conflicts().get(0);
    assertThat(conflict.key()).isEqualTo("decisions.md");
    assertThat(conflict.theirAuthor()).isEqualTo("alice");
    assertThat(ConflictWords.of(bobAgain.state(), conflict))
        .contains("your edit replaced alice's version " + conflict.theirVersion())
        .endsWith(
            "to get theirs back: tmem team restore decisions.md --version "
                + conflict.theirVersion()
                + " --repo "
                + repo);
    assertThat(bobFile).hasContent("bob's edit, made while his daemon was stopped\n");
    assertThat(Files.getLastModifiedTime(same)).isEqualTo(old);
    await(
        "alice gets bob's edit",
        DEADLINE,
        () -> hasContent(aliceFile, "bob's edit, made while his daemon was stopped\n"));
  }

  @Test
  void aServerDeleteRemovesUnmodifiedCopiesAndKeepsAModifiedOne() throws Exception {
    SyncEngine alice = fixture.daemon("alice", repo, server.url(), ServerProcess.ALICE);
    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    Files.writeString(fixture.teamDir("alice").resolve("old.md"), "obsolete\n");
    Files.writeString(fixture.teamDir("alice").resolve("kept.md"), "obsolete too\n");
    await(
        "bob has both",
        DEADLINE,
        () ->
            hasContent(fixture.teamDir("bob").resolve("kept.md"), "obsolete too\n")
                && hasContent(fixture.teamDir("bob").resolve("old.md"), "obsolete\n"));
    bob.close();
    Files.writeString(fixture.teamDir("bob").resolve("kept.md"), "bob still needs this\n");

    TeamMemoryClient admin = fixture.client(server.url(), ServerProcess.ALICE);
    assertThat(admin.delete(repo, "old.md", Optional.empty())).isInstanceOf(Response.Ok.class);
    assertThat(admin.delete(repo, "kept.md", Optional.empty())).isInstanceOf(Response.Ok.class);

    await(
        "alice's unmodified copies go",
        DEADLINE,
        () ->
            !Files.exists(fixture.teamDir("alice").resolve("old.md"))
                && !Files.exists(fixture.teamDir("alice").resolve("kept.md")));
    SyncEngine bobAgain = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB);
    await(
        "bob's unmodified copy goes",
        DEADLINE,
        () -> !Files.exists(fixture.teamDir("bob").resolve("old.md")));
    assertThat(fixture.teamDir("bob").resolve("kept.md")).hasContent("bob still needs this\n");
    await(
        "bob reports the kept file",
        DEADLINE,
        () -> bobAgain.state().keptDeletions().containsKey("kept.md"));
    assertThat(entries(admin, repo)).doesNotContainKeys("old.md", "kept.md");
  }

  @Test
  void aRestartDoesNotReuploadWhatIsAlreadyOnTheServer() throws Exception {
    Path team = Files.createDirectories(fixture.teamDir("alice"));
    for (int i = 0; i < 50; i++) {
      Files.writeString(team.resolve("n" + i + ".md"), "note " + i);
    }
    SyncEngine alice = fixture.daemon("alice", repo, proxy.url(), ServerProcess.ALICE);
    TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
    await("all 50 on the server", DEADLINE, () -> SyncFixture.checksums(reader, repo).size() == 50);
    alice.close();
    int putsBefore = proxy.puts().size();
    Files.writeString(team.resolve("n7.md"), "note 7, edited while stopped");

    SyncEngine again = fixture.daemon("alice", repo, proxy.url(), ServerProcess.ALICE);
    await(
        "the edit is on the server",
        DEADLINE,
        () -> "note 7, edited while stopped".equals(entries(reader, repo).get("n7.md")));
    // As above: the proxy has recorded the PUT once alice has read its response.
    await("nothing left pending", DEADLINE, () -> again.state().pendingKeys().isEmpty());
    var newPuts = proxy.puts().subList(putsBefore, proxy.puts().size());
    assertThat(newPuts).hasSize(1);
    @SuppressWarnings("unchecked")
    Map<String, Map<String, String>> body =
        new ObjectMapper().readValue(newPuts.get(0).body(), Map.class);
    assertThat(body.get("entries")).containsOnlyKeys("n7.md");
  }
}
