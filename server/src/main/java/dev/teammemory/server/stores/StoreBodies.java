package dev.teammemory.server.stores;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.protocol.store.StoreAnswers.Memory;
import dev.teammemory.protocol.store.StoreAnswers.MemoryPrefix;
import dev.teammemory.protocol.store.StoreAnswers.MemoryStore;
import dev.teammemory.protocol.store.StoreAnswers.MemoryVersion;
import dev.teammemory.protocol.store.UserActor;
import dev.teammemory.server.memory.Ids;
import dev.teammemory.server.memory.MemoryRow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Memory Stores API's answers made from what the database holds: the one conversion from a
 * store's, a memory's or a version's row to its wire record ({@code shared-protocol}'s {@code
 * StoreAnswers}, which clients read too).
 */
final class StoreBodies {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<LinkedHashMap<String, String>> STRINGS =
      new TypeReference<>() {};

  private StoreBodies() {}

  static MemoryStore of(StoreRow store) {
    Map<String, String> metadata = new LinkedHashMap<>(metadataOf(store.metadataJson()));
    metadata.put(StoreRequests.REPO, store.slug().toString());
    return new MemoryStore(
        "memory_store",
        store.id(),
        store.name().orElse(store.slug().toString()),
        store.description(),
        metadata,
        time(store.createdAt()),
        time(store.updatedAt().orElse(store.createdAt())),
        store.archivedAt().map(StoreBodies::time).orElse(null));
  }

  static Memory of(String storeId, MemoryRow memory) {
    return new Memory(
        "memory",
        memory.memoryId(),
        storeId,
        MemoryPaths.pathOf(memory.key()),
        hex(memory.checksum()),
        memory.sizeBytes(),
        Ids.ofVersion(memory.versionRowId()),
        time(memory.createdAt()),
        time(memory.updatedAt()),
        memory.content().orElse(null),
        UserActor.of(memory.updatedBy()));
  }

  static Object of(String storeId, ListedItem item) {
    return switch (item) {
      case ListedItem.Memory memory -> of(storeId, memory.row());
      case ListedItem.Folder folder ->
          new MemoryPrefix("memory_prefix", MemoryPaths.pathOf(folder.keyPrefix()));
    };
  }

  static MemoryVersion of(String storeId, VersionRow version) {
    boolean redacted = version.redactedAt().isPresent();
    boolean deleted = version.operation().equals("deleted");
    boolean hasContent = !redacted && !deleted;
    return new MemoryVersion(
        "memory_version",
        Ids.ofVersion(version.rowId()),
        version.memoryId(),
        storeId,
        version.operation(),
        time(version.createdAt()),
        hasContent ? version.content().orElse(null) : null,
        hasContent ? hex(version.checksum()) : null,
        hasContent ? version.sizeBytes() : null,
        redacted ? null : MemoryPaths.pathOf(version.key()),
        UserActor.of(version.author()),
        version.redactedAt().map(StoreBodies::time).orElse(null),
        version.redactedBy().map(UserActor::of).orElse(null));
  }

  /** The metadata a store keeps, as a map; {@code {}} for a malformed value (never written). */
  static Map<String, String> metadataOf(String metadataJson) {
    try {
      return JSON.readValue(metadataJson, STRINGS);
    } catch (JsonProcessingException e) {
      return Map.of();
    }
  }

  static String metadataJson(Map<String, String> metadata) {
    try {
      return JSON.writeValueAsString(metadata);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings is always JSON", e);
    }
  }

  /** The Memory Stores API's {@code content_sha256}: the entry checksum without its prefix. */
  static String hex(String checksum) {
    return checksum.startsWith(Checksums.PREFIX)
        ? checksum.substring(Checksums.PREFIX.length())
        : checksum;
  }

  private static String time(Instant instant) {
    return Timestamps.format(instant);
  }
}
