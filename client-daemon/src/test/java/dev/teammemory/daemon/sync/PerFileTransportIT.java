package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.Conditions.await;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The transport contract against a server that serves the Memory Stores API (file by file), and
 * what only that API answers.
 */
class PerFileTransportIT extends SyncTransportContract {

  @Override
  boolean perFile() {
    return true;
  }

  @Override
  RecordingProxy proxyFor(String serverUrl) throws IOException {
    return RecordingProxy.start(serverUrl);
  }

  @Test
  void theStoreApisRefusalOfACredentialReadsAsTheSecretSkipWithTheServersMessage()
      throws Exception {
    SyncEngine alice = bothHold(Map.of("other.md", "other\n"))[0];
    String path = alice.state().memoryStore().orElseThrow().path();
    String storeId = path.substring(path.lastIndexOf('/') + 1);
    TeamMemoryClient writer = fixture.client(server.url(), ServerProcess.ALICE);

    Response<?> refused =
        writer.memoryStores().create(storeId, "token.md", "the token is " + SECRET + "\n");

    assertThat(refused).isInstanceOf(Response.Rejected.class);
    Response.Rejected<?> rejected = (Response.Rejected<?>) refused;
    SyncState.Skip skip = StoreRefusal.skipOf(rejected.status(), rejected.error(), "sha256:x");
    assertThat(skip.reason()).isEqualTo(SkipReason.SECRET);
    assertThat(skip.inWords())
        .contains("400 invalid_request_error: memory content appears to contain a credential")
        .doesNotContain(SECRET);
    assertThat(entries(reader, repo)).doesNotContainKey("token.md");
  }

  @Test
  void aPathAnotherMemoryIsInTheWayOfWaitsAloneWhileTheRestSyncs() throws Exception {
    SyncEngine alice = bothHold(Map.of("other.md", "other\n"))[0];
    // A teammate on the reference client writes a file named "docs", which team_memory takes.
    TeamMemoryClient teammate = fixture.client(server.url(), ServerProcess.BOB);
    assertThat(teammate.put(repo, Map.of("docs", "a file, not a folder\n"), Optional.empty()))
        .isInstanceOf(Response.Ok.class);

    Files.createDirectories(fixture.teamDir("alice").resolve("docs"));
    Files.writeString(fixture.teamDir("alice").resolve("docs/setup.md"), "in a folder\n");
    Files.writeString(fixture.teamDir("alice").resolve("zz-later.md"), "after it in key order\n");

    await(
        "the file after it landed",
        DEADLINE,
        () -> entries(reader, repo).containsKey("zz-later.md"));
    await(
        "alice reports the blocked path",
        DEADLINE,
        () -> alice.state().skipped().containsKey("docs/setup.md"));
    assertThat(alice.state().skipped().get("docs/setup.md").inWords())
        .contains("another memory on the server is in the way of this path");
    assertThat(entries(reader, repo)).doesNotContainKey("docs/setup.md");
  }
}
