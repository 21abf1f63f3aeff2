package dev.teammemory.server.stores;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * One kept version of a memory as read.
 *
 * @param key the entry key the version was written at
 * @param content empty when the read left it out (the basic view)
 * @param author who wrote it (history's author)
 */
record VersionRow(
    long rowId,
    String memoryId,
    String operation,
    Instant createdAt,
    String key,
    String checksum,
    int sizeBytes,
    Optional<String> content,
    String author,
    Optional<Instant> redactedAt,
    Optional<String> redactedBy) {

  VersionRow {
    requireNonNull(memoryId, "memoryId is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(key, "key is null");
    requireNonNull(checksum, "checksum is null");
    requireNonNull(content, "content is null");
    requireNonNull(author, "author is null");
    requireNonNull(redactedAt, "redactedAt is null");
    requireNonNull(redactedBy, "redactedBy is null");
  }
}
