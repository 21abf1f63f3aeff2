package dev.teammemory.daemon.sync;

import dev.teammemory.daemon.testing.RecordingProxy;
import java.io.IOException;

/**
 * The transport contract against a server from before the Memory Stores API (the proxy answers
 * {@code /v1/} with 404): whole-repository {@code team_memory}, as before per-file sync.
 */
class TeamMemoryTransportIT extends SyncTransportContract {

  @Override
  boolean perFile() {
    return false;
  }

  @Override
  RecordingProxy proxyFor(String serverUrl) throws IOException {
    return RecordingProxy.start(serverUrl).withoutMemoryStores();
  }
}
