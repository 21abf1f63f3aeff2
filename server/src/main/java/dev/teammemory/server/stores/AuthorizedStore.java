package dev.teammemory.server.stores;

import static java.util.Objects.requireNonNull;

import dev.teammemory.server.auth.AuthorizedRepository;

/** A memory store the caller was found allowed to use for the request at hand. */
public record AuthorizedStore(AuthorizedRepository target, StoreRow store) {

  public AuthorizedStore {
    requireNonNull(target, "target is null");
    requireNonNull(store, "store is null");
  }
}
