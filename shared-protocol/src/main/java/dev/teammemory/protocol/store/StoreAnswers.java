package dev.teammemory.protocol.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The Memory Stores API's answers, whole, in the official SDKs' shapes (MEMORY-STORES.md):
 * snake_case, RFC 3339 UTC times, {@code null} members written out. The server answers with these;
 * a client may read them, or only the parts it needs ({@link StoredMemory}, {@link MemoryPage},
 * {@link StoreRef}, {@link MemoryDeleted}), which name the same members.
 */
public final class StoreAnswers {

  private StoreAnswers() {}

  /**
   * An answer of the Memory Stores API. A server writes it with its HTTP layer's JSON mapping,
   * {@code null} members included (the SDKs expect them), not with {@code team_memory}'s.
   */
  public interface Answer {}

  /** A memory store: one repository, bound by {@code metadata.repo}. */
  public record MemoryStore(
      String type,
      String id,
      String name,
      String description,
      Map<String, String> metadata,
      @JsonProperty("created_at") String createdAt,
      @JsonProperty("updated_at") String updatedAt,
      @JsonProperty("archived_at") String archivedAt)
      implements Answer {}

  /** A memory: one entry of the store's repository; {@code content} null in the basic view. */
  public record Memory(
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
      @JsonProperty("updated_by") UserActor updatedBy)
      implements Answer {}

  /** A folder in a listing at depth 1: the path prefix of the memories under it. */
  public record MemoryPrefix(String type, String path) {}

  /**
   * One kept version of a memory; its content, checksum and size are null for a deletion or a
   * redacted version, and its path for a redacted one.
   */
  public record MemoryVersion(
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
      @JsonProperty("created_by") UserActor createdBy,
      @JsonProperty("redacted_at") String redactedAt,
      @JsonProperty("redacted_by") UserActor redactedBy)
      implements Answer {}

  /** One page of a listing: stores, memories and prefixes, or versions; then the next cursor. */
  public record Page(List<?> data, @JsonProperty("next_page") String nextPage) implements Answer {
    public Page {
      data = List.copyOf(data);
    }
  }

  /** What a delete answers: the id, and {@code memory_deleted} or {@code memory_store_deleted}. */
  public record Deleted(String id, String type) implements Answer {}
}
