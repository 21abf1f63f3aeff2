package dev.teammemory.server.memory;

/** What a purge of one kept version came to. */
sealed interface PurgeOutcome {

  /**
   * The version is gone. {@code currentChanged} says whether it was the key's current content, in
   * which case the repository has a new version.
   */
  record Purged(RepositoryState state, boolean currentChanged) implements PurgeOutcome {}

  /** The repository was never written. */
  record NoSuchRepository() implements PurgeOutcome {}

  /** The key has no kept version with this number. */
  record NoSuchVersion() implements PurgeOutcome {}
}
