package dev.teammemory.daemon.sync;

import dev.teammemory.daemon.testing.RecordingProxy;
import java.io.IOException;

/** The transport contract against a server that serves the Memory Stores API: file by file. */
class PerFileTransportIT extends SyncTransportContract {

  @Override
  boolean perFile() {
    return true;
  }

  @Override
  RecordingProxy proxyFor(String serverUrl) throws IOException {
    return RecordingProxy.start(serverUrl);
  }
}
