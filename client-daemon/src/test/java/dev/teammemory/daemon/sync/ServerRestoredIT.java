package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.RepositoryBackup;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's restore: two daemons syncing, then the server's repository restored from a backup
 * taken before some of their writes. The change feed answers a reset below the daemons' version,
 * the daemons say the server forgot, delete nothing, and put back what the backup lacks: a restore
 * ends with the union of the backup and both disks, and the newer copy of each file wins.
 */
class ServerRestoredIT {

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final String REPO = "acme/restored";

  @TempDir Path root;

  @Test
  void aRepositoryRestoredFromAnOlderBackupEndsWithTheUnionOnTheServerAndBothDisks()
      throws Exception {
    try (ServerProcess server = ServerProcess.start(Files.createTempDirectory("tmem-restored-"));
        SyncFixture fixture = new SyncFixture(root)) {
      SyncEngine alice = fixture.daemon("alice", REPO, server.url(), ServerProcess.ALICE);
      SyncEngine bob = fixture.daemon("bob", REPO, server.url(), ServerProcess.BOB);
      await(
          "both pulled",
          DEADLINE,
          () -> alice.whenStarted().isDone() && bob.whenStarted().isDone());
      TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
      Map<String, String> expected = new TreeMap<>();
      write(fixture, "alice", "a1.md", "alice's note 1\n", expected);
      write(fixture, "alice", "a2.md", "alice's note 2\n", expected);
      write(fixture, "alice", "a3.md", "alice's note 3\n", expected);
      write(fixture, "bob", "b1.md", "bob's note 1\n", expected);
      converged(fixture, reader, expected, "the first files synced");
      RepositoryBackup backup = RepositoryBackup.take(server, REPO);

      write(fixture, "alice", "a1.md", "alice's note 1, after the backup\n", expected);
      write(fixture, "bob", "b2.md", "bob's note 2, after the backup\n", expected);
      converged(fixture, reader, expected, "the writes after the backup synced");

      backup.restore();
      assertThat(entries(reader, REPO))
          .as("the restore put the backup's older copy back")
          .containsEntry("a1.md", "alice's note 1\n")
          .doesNotContainKey("b2.md");
      write(fixture, "alice", "a2.md", "alice's note 2, edited after the restore\n", expected);

      converged(fixture, reader, expected, "the union back on the server and both disks");
      await(
          "both daemons said the server forgot",
          DEADLINE,
          () -> alice.state().forgotten().isPresent() && bob.state().forgotten().isPresent());
      assertThat(alice.state().forgotten().orElseThrow())
          .startsWith("the server forgot acme/restored (")
          .contains("nothing was deleted here, and this folder's files were sent again");
      assertThat(alice.state().forgotten().get() + bob.state().forgotten().get())
          .as("at least one daemon read the version going back from the change feed")
          .contains("the repository went back from version ");
      assertThat(files(fixture.teamDir("alice"))).isEqualTo(expected);
      assertThat(files(fixture.teamDir("bob"))).isEqualTo(expected);
    }
  }

  private static void write(
      SyncFixture fixture, String who, String key, String content, Map<String, String> expected)
      throws IOException {
    Files.writeString(fixture.teamDir(who).resolve(key), content);
    expected.put(key, content);
  }

  private static void converged(
      SyncFixture fixture, TeamMemoryClient reader, Map<String, String> expected, String what) {
    await(
        what,
        DEADLINE,
        () ->
            entries(reader, REPO).equals(expected)
                && expected.equals(quietFiles(fixture.teamDir("alice")))
                && expected.equals(quietFiles(fixture.teamDir("bob"))));
  }

  private static Map<String, String> quietFiles(Path team) {
    try {
      return files(team);
    } catch (IOException | RuntimeException e) {
      return Map.of(); // a file renamed under the walk: asked again
    }
  }

  private static Map<String, String> files(Path team) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> all = Files.list(team)) {
      for (Path file : all.filter(Files::isRegularFile).toList()) {
        String name = file.getFileName().toString();
        if (!name.startsWith(".tmem-write-")) {
          files.put(name, Files.readString(file));
        }
      }
    }
    return files;
  }
}
