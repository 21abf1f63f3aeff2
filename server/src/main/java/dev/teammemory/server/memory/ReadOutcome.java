package dev.teammemory.server.memory;

import dev.teammemory.protocol.HashesView;

/** What a GET came to. */
sealed interface ReadOutcome {

  /** The repository was never written. */
  record NotFound() implements ReadOutcome {}

  /** {@code If-None-Match} named the current checksum. */
  record NotModified(String checksum) implements ReadOutcome {}

  /** The whole repository, to be streamed; whoever receives it closes it. */
  record Snapshot(SnapshotStream body) implements ReadOutcome {}

  record Hashes(HashesView body) implements ReadOutcome {}
}
