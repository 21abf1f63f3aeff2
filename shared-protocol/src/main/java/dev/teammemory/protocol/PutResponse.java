package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The body of a successful PUT: the repository's new state and the checksums of only the keys the
 * PUT carried. Clients chain the next batch's {@code If-Match} on {@code checksum}.
 */
public record PutResponse(
    @JsonProperty(required = true) long version,
    @JsonProperty(required = true) String checksum,
    @JsonProperty(required = true) String lastModified,
    @JsonProperty(required = true) Map<String, String> entryChecksums) {

  public PutResponse {
    Wire.version(version, "version");
    Wire.checksum(checksum, "checksum");
    Wire.timestamp(lastModified, "lastModified");
    entryChecksums = Wire.sortedCopy(entryChecksums, "entryChecksums");
  }
}
