package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The body of {@code GET …/team_memory/changes?repo=o/r&after_version=N}: the keys whose entry
 * version is above N, with their checksums ({@code deleted}: a tombstone's last checksum), or a
 * {@code reset} without keys when the server cannot answer for N and the client must read the whole
 * repository (or its hashes view) again.
 */
public record VersionChanges(
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean reset,
    @JsonProperty(required = true) long version,
    @JsonProperty(required = true) String checksum,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> changed,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> deleted) {

  public VersionChanges {
    Wire.version(version, "version");
    Wire.checksum(checksum, "checksum");
    if (reset) {
      if (changed != null || deleted != null) {
        throw new IllegalArgumentException("a reset names no keys");
      }
    } else {
      changed = Wire.sortedCopy(changed, "changed");
      deleted = Wire.sortedCopy(deleted, "deleted");
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
      @JsonProperty("deleted") Map<String, String> deleted) {
    return new VersionChanges(Boolean.TRUE.equals(reset), version, checksum, changed, deleted);
  }

  /** The keys written after the client's version. */
  public static VersionChanges of(
      long version, String checksum, Map<String, String> changed, Map<String, String> deleted) {
    return new VersionChanges(false, version, checksum, changed, deleted);
  }

  /** The client's version cannot be answered for: read the repository again. */
  public static VersionChanges reset(long version, String checksum) {
    return new VersionChanges(true, version, checksum, null, null);
  }
}
