package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static dev.teammemory.daemon.testing.SyncFixture.hasContent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's trial: two daemons syncing, the server stopped and replaced by one on an empty
 * database at the same address. Nothing is lost on either disk, everything goes back up, the
 * daemons say once that the server forgot, and the requests during the outage stay bounded.
 */
class ServerForgotIT {

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final String REPO = "acme/forgot";

  @TempDir Path root;

  @Test
  void aServerReplacedByAnEmptyOneGetsEverythingBackAndNoDiskLosesAFile() throws Exception {
    try (ServerProcess first = ServerProcess.start(Files.createTempDirectory("tmem-first-"));
        RecordingProxy proxy = RecordingProxy.start(first.url());
        SyncFixture fixture = new SyncFixture(root)) {
      SyncEngine alice = fixture.daemon("alice", REPO, proxy.url(), ServerProcess.ALICE);
      SyncEngine bob = fixture.daemon("bob", REPO, proxy.url(), ServerProcess.BOB);
      await(
          "both pulled",
          DEADLINE,
          () -> alice.whenStarted().isDone() && bob.whenStarted().isDone());
      Map<String, String> expected = new LinkedHashMap<>();
      for (int i = 1; i <= 6; i++) {
        expected.put("a" + i + ".md", "alice's note " + i + "\n");
      }
      expected.put("bob.md", "bob's note\n");
      for (Map.Entry<String, String> file : expected.entrySet()) {
        String who = file.getKey().startsWith("bob") ? "bob" : "alice";
        Files.writeString(fixture.teamDir(who).resolve(file.getKey()), file.getValue());
      }
      TeamMemoryClient firstReader = fixture.client(first.url(), ServerProcess.READER);
      await(
          "all files on the first server",
          DEADLINE,
          () -> entries(firstReader, REPO).equals(expected));
      await(
          "all files on both disks",
          DEADLINE,
          () ->
              expected.entrySet().stream()
                  .allMatch(
                      file ->
                          hasContent(
                                  fixture.teamDir("alice").resolve(file.getKey()), file.getValue())
                              && hasContent(
                                  fixture.teamDir("bob").resolve(file.getKey()), file.getValue())));

      first.stop();
      proxy.clear();
      long outageStarted = System.nanoTime();
      Files.writeString(
          fixture.teamDir("alice").resolve("a1.md"), "alice's note 1, edited offline\n");
      Files.writeString(fixture.teamDir("bob").resolve("during.md"), "written while down\n");
      expected.put("a1.md", "alice's note 1, edited offline\n");
      expected.put("during.md", "written while down\n");
      await(
          "both daemons say they cannot reach the server",
          DEADLINE,
          () ->
              alice.state().error().filter(error -> error.startsWith("cannot reach")).isPresent()
                  && bob.state()
                      .error()
                      .filter(error -> error.startsWith("cannot reach"))
                      .isPresent());

      // The replacement: an empty database (its own data folder), reached at the same address.
      try (ServerProcess second = ServerProcess.start(Files.createTempDirectory("tmem-second-"))) {
        long outageSeconds = Math.max(1, (System.nanoTime() - outageStarted) / 1_000_000_000L);
        long duringOutage = proxy.exchanges().size();
        proxy.clear();
        proxy.upstreamIs(second.url());
        long replacedAt = System.nanoTime();
        TeamMemoryClient reader = fixture.client(second.url(), ServerProcess.READER);
        await(
            "everything is back on the new server",
            DEADLINE,
            () -> entries(reader, REPO).equals(expected));
        await(
            "both disks hold every file",
            DEADLINE,
            () ->
                expected.entrySet().stream()
                    .allMatch(
                        file ->
                            hasContent(
                                    fixture.teamDir("alice").resolve(file.getKey()),
                                    file.getValue())
                                && hasContent(
                                    fixture.teamDir("bob").resolve(file.getKey()),
                                    file.getValue())));
        long convergedSeconds = Math.max(1, (System.nanoTime() - replacedAt) / 1_000_000_000L);
        int toConverge = proxy.exchanges().size();
        await(
            "both daemons said the server forgot",
            DEADLINE,
            () -> alice.state().forgotten().isPresent() && bob.state().forgotten().isPresent());
        assertThat(alice.state().forgotten().orElseThrow())
            .startsWith("the server forgot acme/forgot (")
            .contains("nothing was deleted here, and this folder's files were sent again");
        assertThat(Files.list(fixture.teamDir("alice")).count()).isEqualTo(expected.size());
        assertThat(Files.list(fixture.teamDir("bob")).count()).isEqualTo(expected.size());
        System.out.printf(
            "server forgot: %d requests in %d s of outage (two daemons), %d requests in %d s to"
                + " converge on the empty server%n",
            duringOutage, outageSeconds, toConverge, convergedSeconds);
        // Each loop waits at least half its backoff step (at most 2 s here) between attempts; a
        // loop that ignored it made thousands.
        assertThat(duringOutage).isLessThanOrEqualTo(bound(outageSeconds));
      }
    }
  }

  /**
   * The most requests two daemons may make in {@code seconds} of outage with the test's backoff
   * (100 ms doubling to 2 s, so an attempt at most every second per loop after the first five): per
   * daemon two loops (push and feed), each attempt up to five requests.
   */
  static long bound(long seconds) {
    return 2L * 2 * 5 * (5 + seconds);
  }
}
