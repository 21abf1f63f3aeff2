package dev.teammemory.server.stores;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.server.http.MemoryStoresBody;
import dev.teammemory.server.memory.Ids;
import dev.teammemory.server.memory.MemoryRow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Memory Stores API's answers, in the official SDKs' shapes (snake_case, RFC 3339 UTC times,
 * {@code null} members written out), each written in one piece ({@link MemoryStoresBody}).
 */
final class StoreBodies {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<LinkedHashMap<String, String>> STRINGS =
      new TypeReference<>() {};

  private StoreBodies() {}

  record MemoryStore(
      String type,
      String id,
      String name,
      String description,
      Map<String, String> metadata,
      @JsonProperty("created_at") String createdAt,
      @JsonProperty("updated_at") String updatedAt,
      @JsonProperty("archived_at") String archivedAt)
      implements MemoryStoresBody {}

  record Memory(
      String type,
      String id,
      @JsonProperty("memory_store_id") String memoryStoreId,
      String path,
      @JsonProperty("content_sha256") String contentSha256,
      @JsonProperty("content_size_bytes") int contentSizeBytes,
      @JsonProperty("memory_version_id") String memoryVersionId,
      @JsonProperty("created_at") String createdAt,
      @JsonProperty("updated_at") String updatedAt,
      String content,
      @JsonProperty("updated_by") Actor updatedBy)
      implements MemoryStoresBody {}

  record MemoryPrefix(String type, String path) {}

  record Actor(String type, @JsonProperty("user_id") String userId) {}

  record MemoryVersion(
      String type,
      String id,
      @JsonProperty("memory_id") String memoryId,
      @JsonProperty("memory_store_id") String memoryStoreId,
      String operation,
      @JsonProperty("created_at") String createdAt,
      String content,
      @JsonProperty("content_sha256") String contentSha256,
      @JsonProperty("content_size_bytes") Integer contentSizeBytes,
      String path,
      @JsonProperty("created_by") Actor createdBy,
      @JsonProperty("redacted_at") String redactedAt,
      @JsonProperty("redacted_by") Actor redactedBy)
      implements MemoryStoresBody {}

  record Page(List<?> data, @JsonProperty("next_page") String nextPage)
      implements MemoryStoresBody {
    Page {
      data = List.copyOf(data);
    }
  }

  record Deleted(String id, String type) implements MemoryStoresBody {}

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
        new Actor("user_actor", memory.updatedBy()));
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
        new Actor("user_actor", version.author()),
        version.redactedAt().map(StoreBodies::time).orElse(null),
        version.redactedBy().map(user -> new Actor("user_actor", user)).orElse(null));
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
