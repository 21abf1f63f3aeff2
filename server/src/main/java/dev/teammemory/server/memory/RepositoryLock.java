package dev.teammemory.server.memory;

import java.util.Optional;

/**
 * What locking a repository's row came to ({@link EntryStore#lockStore}): the row held for a write,
 * the row held but archived (it takes no writes of memories, though its store may still be
 * archived, deleted or redacted), or no row. Each write decides what the refusals mean for it.
 */
public sealed interface RepositoryLock {

  /** The row is locked for this write. */
  record Held(RepositoryWrite held) implements RepositoryLock {}

  /** The row is locked, and its store is archived: read-only for memories. */
  record Archived(RepositoryWrite held) implements RepositoryLock {}

  /** No such repository (or, for a store's lock, the repository has another store now). */
  record Absent() implements RepositoryLock {}

  /** The write, when there is a row to write to, archived or not. */
  default Optional<RepositoryWrite> write() {
    return switch (this) {
      case Held held -> Optional.of(held.held());
      case Archived archived -> Optional.of(archived.held());
      case Absent absent -> Optional.empty();
    };
  }
}
