package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Optional;

/**
 * The body of {@code GET …/team_memory/changes?repo=o/r&after_version=N}: the keys whose entry
 * version is above N, with their checksums ({@code deleted}: a tombstone's last checksum), or a
 * {@code reset} without keys when the server cannot answer for N and the client must read the whole
 * repository (or its hashes view) again. {@code authors} names who wrote the current version of
 * each key in {@code changed} (a server that does not say leaves it out; a client then reads it as
 * empty), so that a client learns authors without a history read per key.
 */
public record VersionChanges(
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean reset,
    @JsonProperty(required = true) long version,
    @JsonProperty(required = true) String checksum,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> changed,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> deleted,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> authors) {

  public VersionChanges {
    Wire.version(version, "version");
    Wire.checksum(checksum, "checksum");
    if (reset) {
      if (changed != null || deleted != null || authors != null) {
        throw new IllegalArgumentException("a reset names no keys");
      }
    } else {
      changed = Wire.sortedCopy(changed, "changed");
      deleted = Wire.sortedCopy(deleted, "deleted");
      authors = Wire.sortedCopyOrEmpty(authors, "authors");
    }
  }

  /**
   * Reads a body: {@code reset} is left out unless true, and a record's primitive would otherwise
   * fail on the missing field.
   */
  @JsonCreator
  static VersionChanges read(
      @JsonProperty("reset") Boolean reset,
      @JsonProperty(value = "version", required = true) long version,
      @JsonProperty(value = "checksum", required = true) String checksum,
      @JsonProperty("changed") Map<String, String> changed,
      @JsonProperty("deleted") Map<String, String> deleted,
      @JsonProperty("authors") Map<String, String> authors) {
    boolean isReset = Boolean.TRUE.equals(reset);
    return new VersionChanges(
        isReset, version, checksum, changed, deleted, isReset ? null : authors);
  }

  /** The keys written after the client's version, without their authors. */
  public static VersionChanges of(
      long version, String checksum, Map<String, String> changed, Map<String, String> deleted) {
    return new VersionChanges(false, version, checksum, changed, deleted, Map.of());
  }

  /** The keys written after the client's version, with who wrote each changed key. */
  public static VersionChanges of(
      long version,
      String checksum,
      Map<String, String> changed,
      Map<String, String> deleted,
      Map<String, String> authors) {
    return new VersionChanges(false, version, checksum, changed, deleted, authors);
  }

  /** Who wrote the current version of a changed key, when the server said. */
  public Optional<String> authorOf(String key) {
    return authors == null ? Optional.empty() : Optional.ofNullable(authors.get(key));
  }

  /** The client's version cannot be answered for: read the repository again. */
  public static VersionChanges reset(long version, String checksum) {
    return new VersionChanges(true, version, checksum, null, null, null);
  }
}
