package dev.teammemory.server.memory;

/** What a delete of one key came to. Only {@link Deleted} wrote anything. */
sealed interface DeleteOutcome {

  /** The key is now a tombstone, in a new version. */
  record Deleted(RepositoryState state) implements DeleteOutcome {}

  /** The key was already deleted: nothing changed (so that a retried delete succeeds). */
  record AlreadyDeleted(RepositoryState state) implements DeleteOutcome {}

  /** {@code If-Match} did not name the current checksum. */
  record PreconditionFailed(String currentChecksum) implements DeleteOutcome {}

  /** {@code expected_checksum} is not the key's current checksum (a teammate changed it). */
  record KeyChanged(String currentChecksum) implements DeleteOutcome {}

  /** The repository's memory store is archived: it takes no writes. */
  record Archived() implements DeleteOutcome {}

  /** The repository was never written. */
  record NoSuchRepository() implements DeleteOutcome {}

  /** The repository never had this key. */
  record NoSuchKey() implements DeleteOutcome {}
}
