package dev.teammemory.protocol.store;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The part of a MemoryStore (or of a store-deleted answer) a client needs: its id. */
public record StoreRef(@JsonProperty(value = "id", required = true) String id) {

  public StoreRef {
    if (id == null || !id.startsWith("memstore_")) {
      throw new IllegalArgumentException("not a memory store id: " + id);
    }
  }
}
