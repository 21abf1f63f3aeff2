package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * One live memory of the Memory Stores API, as a read found it or a write left it: its entry, and
 * the row of the version that holds its content. The one shape both give the answer is made from.
 *
 * @param key the entry key; the memory's path is {@code "/" + key}
 * @param checksum the entry checksum, {@code sha256:…}
 * @param versionRowId the row of its current version (the API's {@code memver_…})
 * @param updatedBy who wrote the current version (a login)
 * @param content empty when the read left it out (the basic view)
 */
public record MemoryRow(
    String memoryId,
    String key,
    String checksum,
    int sizeBytes,
    long versionRowId,
    Instant createdAt,
    Instant updatedAt,
    String updatedBy,
    Optional<String> content) {

  public MemoryRow {
    requireNonNull(memoryId, "memoryId is null");
    requireNonNull(key, "key is null");
    requireNonNull(checksum, "checksum is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(updatedAt, "updatedAt is null");
    requireNonNull(updatedBy, "updatedBy is null");
    requireNonNull(content, "content is null");
  }
}
