package dev.teammemory.server.stores;

/** What a write to a store itself came to (create, update, archive, delete). */
sealed interface StoreOutcome {

  /** The store as it is now; {@code created} when this request made it. */
  record Done(String storeId, boolean created) implements StoreOutcome {}

  /** The store (this id) is gone. */
  record NotFound() implements StoreOutcome {}

  /** The store is archived and cannot be updated. */
  record Archived() implements StoreOutcome {}
}
