package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server goes down and comes back: the pending push goes through, nothing is lost. */
class ServerRestartIT {

  private static final Duration DEADLINE = Duration.ofSeconds(90);

  @TempDir Path root;

  @Test
  void aChangeMadeWhileTheServerIsDownIsPushedWhenItComesBack() throws Exception {
    String repo = "acme/restart";
    try (ServerProcess server = ServerProcess.start(Files.createTempDirectory("tmem-server-"));
        SyncFixture fixture = new SyncFixture(root)) {
      SyncEngine alice = fixture.daemon("alice", repo, server.url(), ServerProcess.ALICE);
      await("alice pulled", DEADLINE, () -> alice.state().lastPull().isPresent());
      Files.writeString(fixture.teamDir("alice").resolve("before.md"), "before\n");
      TeamMemoryClient reader = fixture.client(server.url(), ServerProcess.READER);
      await(
          "the first file is on the server",
          DEADLINE,
          () -> entries(reader, repo).containsKey("before.md"));

      server.stop();
      Files.writeString(
          fixture.teamDir("alice").resolve("during.md"), "written while the server was down\n");
      await(
          "the push fails, says so and keeps the change pending",
          DEADLINE,
          () -> {
            SyncState state = alice.state();
            return state
                    .error()
                    .filter(error -> error.startsWith("cannot reach") && error.contains("to push"))
                    .isPresent()
                && state.pendingKeys().equals(java.util.List.of("during.md"));
          });

      server.start();
      await(
          "the pending push goes through",
          DEADLINE,
          () ->
              "written while the server was down\n".equals(entries(reader, repo).get("during.md")));
      await("nothing is pending", DEADLINE, () -> alice.state().pendingKeys().isEmpty());
      assertThat(entries(reader, repo)).containsOnlyKeys("before.md", "during.md");
    }
  }
}
