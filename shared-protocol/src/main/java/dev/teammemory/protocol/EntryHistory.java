package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The body of the history extension: every kept version of one key, newest first. */
public record EntryHistory(
    @JsonProperty(required = true) String repo,
    @JsonProperty(required = true) String key,
    @JsonProperty(required = true) List<Version> versions) {

  public EntryHistory {
    requireNonNull(repo, "repo is null");
    requireNonNull(key, "key is null");
    versions = List.copyOf(requireNonNull(versions, "versions is null"));
  }

  /** One kept content of the key; {@code deleted} marks the tombstone an explicit delete left. */
  public record Version(
      @JsonProperty(required = true) long version,
      @JsonProperty(required = true) String checksum,
      @JsonProperty(required = true) String content,
      @JsonProperty(required = true) String author,
      @JsonProperty(required = true) String at,
      @JsonProperty(required = true) boolean deleted) {

    public Version {
      Wire.version(version, "version");
      Wire.checksum(checksum, "checksum");
      requireNonNull(content, "content is null");
      requireNonNull(author, "author is null");
      Wire.timestamp(at, "at");
    }
  }
}
