package dev.teammemory.server.stores;

import dev.teammemory.server.memory.MemoryRow;
import dev.teammemory.server.secrets.SecretFinding;
import java.util.List;

/** What a Memory Stores API write of one memory came to. Only {@link Written} wrote anything. */
sealed interface MemoryOutcome {

  /** The memory changed, in a new repository version. */
  record Written(MemoryRow memory) implements MemoryOutcome {}

  /** The memory already had this content and path: nothing changed. */
  record Unchanged(MemoryRow memory) implements MemoryOutcome {}

  /** The deletion was applied (a tombstone). */
  record Deleted(String memoryId) implements MemoryOutcome {}

  /** No live memory with this id in the store (or the store is gone). */
  record NotFound() implements MemoryOutcome {}

  /** The store is archived: its memories cannot be created or changed. */
  record Archived() implements MemoryOutcome {}

  /** The path equals, contains or is contained by another memory's path. */
  record PathConflict(String conflictingKey, String conflictingMemoryId) implements MemoryOutcome {}

  /** The memory's content is not the one the precondition expected. */
  record PreconditionFailed(String currentChecksum) implements MemoryOutcome {}

  /** One memory more than the store may hold. */
  record TooManyEntries(int maxEntries) implements MemoryOutcome {}

  /** More content bytes than the store may hold. */
  record RepositoryTooLarge(long maxBytes) implements MemoryOutcome {}

  /** The content holds a secret. */
  record SecretDetected(List<SecretFinding> findings) implements MemoryOutcome {
    public SecretDetected {
      findings = List.copyOf(findings);
    }
  }
}
