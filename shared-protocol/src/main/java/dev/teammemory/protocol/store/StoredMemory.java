package dev.teammemory.protocol.store;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Optional;

/**
 * A memory of the Memory Stores API (MEMORY-STORES.md): one entry of the repository, its path
 * {@code "/" + key}. {@code content} is null in {@code view=basic}; {@code updated_by} names the
 * author of its current version and {@code updated_at} when it was written (null from a server that
 * does not say).
 */
public record StoredMemory(
    @JsonProperty(value = "id", required = true) String id,
    @JsonProperty(value = "path", required = true) String path,
    @JsonProperty(value = "content_sha256", required = true) String contentSha256,
    @JsonProperty("content") String content,
    @JsonProperty("updated_by") UserActor updatedBy,
    @JsonProperty("updated_at") String updatedAt) {

  public StoredMemory {
    requireNonNull(id, "id is null");
    requireNonNull(path, "path is null");
    requireNonNull(contentSha256, "content_sha256 is null");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path does not start with '/': " + path);
    }
    if (!contentSha256.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("content_sha256 is not 64 lowercase hex digits");
    }
  }

  /** The team-memory key of this memory's path. */
  public String key() {
    return path.substring(1);
  }

  /** The team-memory checksum of the content: {@code sha256:} and the same digits. */
  public String checksum() {
    return "sha256:" + contentSha256;
  }

  /** A memory read without its author. */
  public StoredMemory(String id, String path, String contentSha256, String content) {
    this(id, path, contentSha256, content, null, null);
  }

  /** A memory read with its author but not when they wrote it. */
  public StoredMemory(
      String id, String path, String contentSha256, String content, UserActor updatedBy) {
    this(id, path, contentSha256, content, updatedBy, null);
  }

  /** When the current version was written (ISO-8601), when the server said. */
  public Optional<String> writtenAt() {
    return Optional.ofNullable(updatedAt);
  }

  /** Who wrote the current version, when the server said. */
  public Optional<String> author() {
    return Optional.ofNullable(updatedBy).map(UserActor::userId);
  }

  public Optional<String> contentIfRead() {
    return Optional.ofNullable(content);
  }

  /** The {@code content_sha256} of a team-memory checksum. */
  public static String sha256Of(String checksum) {
    if (!checksum.startsWith("sha256:")) {
      throw new IllegalArgumentException("not a sha256: checksum: " + checksum);
    }
    return checksum.substring("sha256:".length());
  }
}
