package dev.teammemory.server.stores;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * One live memory as read: its entry, and the row of the version that holds its content.
 *
 * @param key the entry key; the memory's path is {@code "/" + key}
 * @param checksum the entry checksum, {@code sha256:…}
 * @param updatedBy who wrote the current version (a login)
 * @param content empty when the read left it out (the basic view)
 */
record MemoryRow(
    String memoryId,
    String key,
    String checksum,
    int sizeBytes,
    long versionRowId,
    Instant createdAt,
    Instant updatedAt,
    String updatedBy,
    Optional<String> content) {

  MemoryRow {
    requireNonNull(memoryId, "memoryId is null");
    requireNonNull(key, "key is null");
    requireNonNull(checksum, "checksum is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(updatedAt, "updatedAt is null");
    requireNonNull(updatedBy, "updatedBy is null");
    requireNonNull(content, "content is null");
  }
}
