package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Optional;

/**
 * The body of the history extension: one page of the kept versions of one key, newest first. A page
 * is bounded in count and bytes; {@code nextPage}, when present, is the cursor of the next (older)
 * one ({@code &page=<cursor>}).
 */
public record EntryHistory(
    @JsonProperty(required = true) String repo,
    @JsonProperty(required = true) String key,
    @JsonProperty(required = true) List<Version> versions,
    @JsonProperty("next_page") @JsonInclude(JsonInclude.Include.NON_NULL) String nextPage) {

  public EntryHistory {
    requireNonNull(repo, "repo is null");
    requireNonNull(key, "key is null");
    versions = List.copyOf(requireNonNull(versions, "versions is null"));
    if (nextPage != null && nextPage.isEmpty()) {
      throw new IllegalArgumentException("next_page must not be empty");
    }
  }

  /** The last (or only) page. */
  public EntryHistory(String repo, String key, List<Version> versions) {
    this(repo, key, versions, null);
  }

  /** The cursor of the next, older page; empty on the last one. */
  public Optional<String> next() {
    return Optional.ofNullable(nextPage);
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
