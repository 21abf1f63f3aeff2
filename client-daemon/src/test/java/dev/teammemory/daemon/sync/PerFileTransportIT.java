package dev.teammemory.daemon.sync;

import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.RecordingProxy;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.util.Map;
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
}
