package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code GET /api/claude_code/team_memory/store?repo=o/r}: the repository's memory
 * store on the Memory Stores API of the same server.
 *
 * @param id the store's id, {@code memstore_…}
 * @param path where the store is served, {@code /v1/memory_stores/memstore_…}
 */
public record MemoryStoreLocation(
    @JsonProperty(required = true) String id, @JsonProperty(required = true) String path) {

  public MemoryStoreLocation {
    requireNonNull(id, "id is null");
    requireNonNull(path, "path is null");
  }
}
