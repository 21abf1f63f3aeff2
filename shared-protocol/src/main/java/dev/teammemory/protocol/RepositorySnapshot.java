package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The body of {@code GET /api/claude_code/team_memory}: the whole repository. All six protocol
 * fields are required; {@code deletedKeys} is our extension and is omitted when empty.
 */
public record RepositorySnapshot(
    @JsonProperty(required = true) String organizationId,
    @JsonProperty(required = true) String repo,
    @JsonProperty(required = true) long version,
    @JsonProperty(required = true) String lastModified,
    @JsonProperty(required = true) String checksum,
    @JsonProperty(required = true) Content content,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> deletedKeys) {

  public RepositorySnapshot {
    requireNonNull(organizationId, "organizationId is null");
    requireNonNull(repo, "repo is null");
    Wire.version(version, "version");
    Wire.timestamp(lastModified, "lastModified");
    Wire.checksum(checksum, "checksum");
    requireNonNull(content, "content is null");
    deletedKeys = Wire.sortedCopyOrEmpty(deletedKeys, "deletedKeys");
  }

  /** {@code content}: entry bodies and their checksums, keyed alike. */
  public record Content(
      @JsonProperty(required = true) Map<String, String> entries,
      @JsonProperty(required = true) Map<String, String> entryChecksums) {

    public Content {
      entries = Wire.sortedCopy(entries, "entries");
      entryChecksums = Wire.sortedCopy(entryChecksums, "entryChecksums");
    }
  }
}
