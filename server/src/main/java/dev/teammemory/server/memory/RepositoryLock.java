package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What locking a repository's row came to ({@link EntryStore#lock}): the row held for a write, the
 * row held but archived (it takes no writes of memories, though its store may still be archived,
 * deleted or redacted), or no row. Each write decides what the refusals mean for it.
 */
public sealed interface RepositoryLock {

  /** The write, when there is a row to write to, archived or not. */
  Optional<RepositoryWrite> write();

  /** The row is locked for this write. */
  record Held(RepositoryWrite held) implements RepositoryLock {
    public Held {
      requireNonNull(held, "held is null");
    }

    @Override
    public Optional<RepositoryWrite> write() {
      return Optional.of(held);
    }
  }

  /** The row is locked, and its store is archived: read-only for memories. */
  record Archived(RepositoryWrite held) implements RepositoryLock {
    public Archived {
      requireNonNull(held, "held is null");
    }

    @Override
    public Optional<RepositoryWrite> write() {
      return Optional.of(held);
    }
  }

  /** No such repository (or, for a store's lock, the repository has another store now). */
  record Absent() implements RepositoryLock {
    @Override
    public Optional<RepositoryWrite> write() {
      return Optional.empty();
    }
  }
}
