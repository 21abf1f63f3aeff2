package dev.teammemory.server.memory;

import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.RepositorySnapshot;

/** What a GET came to. */
sealed interface ReadOutcome {

  /** The repository was never written. */
  record NotFound() implements ReadOutcome {}

  /** {@code If-None-Match} named the current checksum. */
  record NotModified(String checksum) implements ReadOutcome {}

  /** The whole repository; {@code contentBytes} counts its live entries' UTF-8 bytes. */
  record Snapshot(RepositorySnapshot body, long contentBytes) implements ReadOutcome {}

  record Hashes(HashesView body) implements ReadOutcome {}
}
