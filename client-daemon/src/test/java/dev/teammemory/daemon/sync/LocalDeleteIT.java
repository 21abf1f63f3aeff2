package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static dev.teammemory.daemon.testing.SyncFixture.hasContent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.DeleteResponse;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local deletes reaching the real server: confirmed, held, released, refused, renames, restarts.
 */
class LocalDeleteIT {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Duration DELETE_DELAY = Duration.ofMillis(700);

  /** The 30 s of the daemon shortened, and held deletes looked at twice a second. */
  private static final SyncSettings SETTINGS =
      SyncFixture.FAST.withDeleteDelay(DELETE_DELAY).withPollInterval(Duration.ofMillis(500));

  private static ServerProcess server;

  @TempDir Path root;
  private SyncFixture fixture;
  private String repo;
  private TeamMemoryClient reader;

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
  void setUp(TestInfo test) {
    fixture = new SyncFixture(root);
    String name = test.getTestMethod().orElseThrow().getName().toLowerCase();
    repo = "acme/" + name.substring(0, Math.min(30, name.length()));
    reader = fixture.client(server.url(), ServerProcess.READER);
  }

  @AfterEach
  void tearDown() throws Exception {
    fixture.close();
  }

  /** Alice and Bob both hold {@code files}, written by Alice. */
  private SyncEngine[] bothHold(Map<String, String> files) throws Exception {
    SyncEngine alice = fixture.daemon("alice", repo, server.url(), ServerProcess.ALICE, SETTINGS);
    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB, SETTINGS);
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
    // Several delete delays later, still nothing deleted on the server.
    Thread.sleep(DELETE_DELAY.multipliedBy(3).toMillis());
    assertThat(entries(reader, repo)).containsOnlyKeys("a.md", "b.md");
    assertThat(alice.state().heldDeletes().get().reason()).isEqualTo("the team folder is empty");
    assertThat(alice.state().heldDeletes().get().keys()).containsExactly("a.md", "b.md");

    DeleteConfirmation.request(fixture.stateDir("alice"));

    await("the held deletes went out", DEADLINE, () -> entries(reader, repo).isEmpty());
    await("the hold is over", DEADLINE, () -> alice.state().heldDeletes().isEmpty());
    assertThat(fixture.teamDir("bob")).isEmptyDirectory();
  }

  @Test
  void aFileATeammateChangedMeanwhileComesBackWithTheirVersionInsteadOfBeingDeleted()
      throws Exception {
    // A delay long enough for bob's edit to land first.
    SyncSettings slow = SETTINGS.withDeleteDelay(Duration.ofHours(1));
    SyncEngine alice = fixture.daemon("alice", repo, server.url(), ServerProcess.ALICE, slow);
    SyncEngine bob = fixture.daemon("bob", repo, server.url(), ServerProcess.BOB, slow);
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

    fixture.daemon("alice", repo, server.url(), ServerProcess.ALICE, SETTINGS);

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
}
