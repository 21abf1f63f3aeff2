package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.Timestamps;
import java.time.Instant;

/** A repository's version, checksum and last modification, as of one transaction. */
record RepositoryState(String repo, long version, String checksum, Instant lastModified) {

  RepositoryState {
    requireNonNull(repo, "repo is null");
    requireNonNull(checksum, "checksum is null");
    requireNonNull(lastModified, "lastModified is null");
    if (version < 0) {
      throw new IllegalArgumentException("version is negative: " + version);
    }
  }

  /** A repository nothing was ever written to: version 0, the empty checksum, never modified. */
  static RepositoryState neverWritten(String repo) {
    return new RepositoryState(repo, 0, Checksums.EMPTY, Instant.EPOCH);
  }

  static RepositoryState of(Repository repository) {
    return new RepositoryState(
        repository.slug, repository.version, repository.checksum, repository.lastModified);
  }

  boolean isNeverWritten() {
    return version == 0;
  }

  /** ISO-8601 UTC with milliseconds; {@link Timestamps#NEVER} for a never-written repository. */
  String lastModifiedText() {
    return isNeverWritten() ? Timestamps.NEVER : Timestamps.format(lastModified);
  }
}
