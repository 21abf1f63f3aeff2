package dev.teammemory.server.stores;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/** Which versions a listing asks for, and whether with their content. */
record VersionFilter(
    Optional<String> memoryId,
    Optional<String> operation,
    Optional<Instant> createdFrom,
    Optional<Instant> createdUntil,
    boolean withContent) {

  VersionFilter {
    requireNonNull(memoryId, "memoryId is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(createdFrom, "createdFrom is null");
    requireNonNull(createdUntil, "createdUntil is null");
  }

  /** The same versions, without their contents (sizes only). */
  VersionFilter withoutContent() {
    return new VersionFilter(memoryId, operation, createdFrom, createdUntil, false);
  }
}
