package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The body of {@code ?view=hashes} (and of the change feed): what the server holds, without entry
 * bodies.
 */
public record HashesView(
    @JsonProperty(required = true) long version,
    @JsonProperty(required = true) String checksum,
    @JsonProperty(required = true) Map<String, String> entryChecksums,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> deletedKeys) {

  public HashesView {
    Wire.version(version, "version");
    Wire.checksum(checksum, "checksum");
    entryChecksums = Wire.sortedCopy(entryChecksums, "entryChecksums");
    deletedKeys = Wire.sortedCopyOrEmpty(deletedKeys, "deletedKeys");
  }
}
