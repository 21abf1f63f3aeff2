package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.testing.ScriptedServer;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.secrets.SecretScanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pull at start against a server holding fixed entries. */
class PullTest {

  @TempDir Path temporary;

  private SyncReport syncOnce(Map<String, String> entries, Path team) throws Exception {
    String body = ScriptedServer.repositoryBody(4, entries);
    try (ScriptedServer server =
            new ScriptedServer(
                request ->
                    ScriptedServer.json(
                        request.getMethod().equals("GET") ? 200 : 500,
                        request.getMethod().equals("GET") ? body : "{}"));
        TeamMemoryClient client = new TeamMemoryClient(server.url(), () -> "token", "tmem-test");
        SyncEngine engine =
            SyncEngine.open(
                new SyncTarget(server.url(), "acme/widgets", team, temporary.resolve("state")),
                client,
                () -> Optional.of("token"),
                new SecretGuard(SecretScanner.defaultRules()),
                SyncSettings.defaults())) {
      return engine.syncOnce();
    }
  }

  @Test
  void aLocalFileThatNeverSyncedIsSavedAsideBeforeTheServersVersionReplacesIt() throws Exception {
    Path team = Files.createDirectories(temporary.resolve("team"));
    Files.writeString(team.resolve("MEMORY.md"), "my old copy\n");

    SyncReport report = syncOnce(Map.of("MEMORY.md", "the team's version\n"), team);

    assertThat(team.resolve("MEMORY.md")).hasContent("the team's version\n");
    SyncState.ConflictRecord conflict = report.state().conflicts().get(0);
    assertThat(Path.of(conflict.savedCopy()))
        .hasContent("my old copy\n")
        .startsWith(temporary.resolve("state/replaced"));
    assertThat(ConflictWords.of(report.state(), conflict))
        .contains(
            "the server's version is in the team folder now and your copy is saved at "
                + conflict.savedCopy());
  }

  /**
   * The fault program's finding: after the server forgot, a teammate's daemon sent its copy of
   * alice's file (the version both had synced) before alice's daemon sent her edit made while the
   * server was away. Her file was then taken for one never synced, and the server's older copy
   * replaced it (kept aside, but her edit gone from her disk and the server).
   */
  @Test
  void anEditMadeWhileTheServerWasAwayStaysWhenATeammatesOlderCopyReachesTheNewServerFirst()
      throws Exception {
    Path team = Files.createDirectories(temporary.resolve("forgot/team"));
    Path state = Files.createDirectories(temporary.resolve("forgot/state"));
    String both = "the version both daemons synced\n";
    String edited = "alice's edit while the server was away\n";
    Files.createDirectories(team.resolve("alice"));
    Files.writeString(team.resolve("alice/note.md"), edited);
    Map<String, String> synced = Map.of("alice/note.md", Checksums.ofContent(both));
    SyncLedger ledger =
        new SyncLedger(PushPlannerTest.state(synced, synced, Map.of()), Clock.systemUTC());
    Puller puller =
        new Puller(
            new TeamFolder(team),
            KeptCopies.of(state, Map.of()),
            state,
            (k, c) -> Optional.empty());

    // An empty server: everything here goes back up.
    ledger.serverForgot("it answers that the repository was never written");
    puller.apply(ledger, Map.of(), Map.of(), Checksums.EMPTY);
    // The teammate's copy landed first; the next pull reads it.
    Map<String, String> theirs = Map.of("alice/note.md", both);
    puller.apply(
        ledger,
        theirs,
        Map.of(),
        Checksums.ofRepository(Map.of("alice/note.md", Checksums.ofContent(both))));

    assertThat(team.resolve("alice/note.md")).hasContent(edited);
    assertThat(ledger.syncedChecksum("alice/note.md")).isEmpty();
  }

  @Test
  void identicalFilesAreNotRewrittenAndLocalOnlyFilesStay() throws Exception {
    Path team = Files.createDirectories(temporary.resolve("team"));
    Path same = Files.writeString(team.resolve("same.md"), "same\n");
    FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    Files.setLastModifiedTime(same, old);
    Files.writeString(team.resolve("mine-only.md"), "only here\n");

    SyncReport report = syncOnce(Map.of("same.md", "same\n", "new/theirs.md", "theirs\n"), team);

    assertThat(Files.getLastModifiedTime(same)).isEqualTo(old);
    assertThat(team.resolve("mine-only.md")).hasContent("only here\n");
    assertThat(team.resolve("new/theirs.md")).hasContent("theirs\n");
    assertThat(report.pull())
        .isEqualTo(new PullOutcome.Pulled(1, 0, java.util.List.of(), java.util.List.of()));
    assertThat(report.state().conflicts()).isEmpty();
  }

  @Test
  void aFileHereTooLargeToSyncIsNeverReplacedByThePull() throws Exception {
    Path team = Files.createDirectories(temporary.resolve("team"));
    String grown = "x".repeat(300_000) + "\n";
    Files.writeString(team.resolve("notes.md"), grown);

    SyncReport report = syncOnce(Map.of("notes.md", "the server's smaller copy\n"), team);

    assertThat(team.resolve("notes.md")).hasContent(grown);
    assertThat(report.state().skipped()).containsKey("notes.md");
    assertThat(report.state().skipped().get("notes.md").reason()).isEqualTo(SkipReason.TOO_LARGE);
  }

  @Test
  void aFileThatIsNotUtf8IsSkippedWithItsFixAndNeverReplacedByTheServersAlteredCopy()
      throws Exception {
    Path team = Files.createDirectories(temporary.resolve("team"));
    byte[] latin1 = {'C', 'a', 'f', (byte) 0xe9, '\n'};
    Files.write(team.resolve("latin1.md"), latin1);

    SyncReport report = syncOnce(Map.of("latin1.md", "Caf\uFFFD\n"), team);

    assertThat(Files.readAllBytes(team.resolve("latin1.md"))).isEqualTo(latin1);
    assertThat(report.state().skipped().get("latin1.md").inWords())
        .isEqualTo("not UTF-8: save it as UTF-8 (the first byte that is not is at offset 3)");
  }

  @Test
  void keysThatAreOneFileOnADiskIgnoringCaseOrUnicodeFormAreNeverWrittenOverEachOther()
      throws Exception {
    Path team = Files.createDirectories(temporary.resolve("team"));

    SyncReport report =
        syncOnce(
            Map.of(
                "Case.md", "upper\n",
                "case.md", "lower\n",
                "cafe\u0301.md", "decomposed\n",
                "caf\u00e9.md", "composed\n",
                "notes", "a file\n",
                "Notes/x.md", "in a folder\n"),
            team);

    assertThat(team.resolve("Case.md")).hasContent("upper\n");
    assertThat(team.resolve("case.md")).doesNotExist();
    assertThat(team.resolve("cafe\u0301.md")).hasContent("decomposed\n");
    assertThat(team.resolve("caf\u00e9.md")).doesNotExist();
    // Key order decides among the server's twins: upper case sorts first.
    assertThat(team.resolve("Notes/x.md")).hasContent("in a folder\n");
    assertThat(team.resolve("notes")).doesNotExist();
    assertThat(report.state().refusedKeys()).containsOnlyKeys("case.md", "caf\u00e9.md", "notes");
    assertThat(report.state().refusedKeys().get("case.md"))
        .isEqualTo(
            "on a disk that ignores case or Unicode form it is the same file or folder as Case.md;"
                + " rename one of them where it was written (e.g. to case-2.md)");
    assertThat(report.state().refusedKeys().get("notes"))
        .contains("same file or folder as Notes/x.md");
  }
}
