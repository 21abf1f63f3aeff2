package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One live memory as a write left it: its entry and the version that holds its content.
 *
 * @param key the entry key ({@code a/b.md}); the memory's path is {@code "/" + key}
 * @param checksum the entry checksum, {@code sha256:…}
 * @param versionRowId the row of its current version (the API's {@code memver_…})
 * @param updatedBy who wrote the current version (a login)
 */
public record MemoryState(
    String memoryId,
    String key,
    String checksum,
    int sizeBytes,
    long versionRowId,
    Instant createdAt,
    Instant updatedAt,
    String updatedBy,
    String content) {

  public MemoryState {
    requireNonNull(memoryId, "memoryId is null");
    requireNonNull(key, "key is null");
    requireNonNull(checksum, "checksum is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(updatedAt, "updatedAt is null");
    requireNonNull(updatedBy, "updatedBy is null");
    requireNonNull(content, "content is null");
  }
}
