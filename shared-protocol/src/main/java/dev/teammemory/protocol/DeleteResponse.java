package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The body of a successful {@code DELETE …?key=k} (our extension). */
public record DeleteResponse(
    @JsonProperty(required = true) long version,
    @JsonProperty(required = true) String checksum,
    @JsonProperty(required = true) String lastModified) {

  public DeleteResponse {
    Wire.version(version, "version");
    Wire.checksum(checksum, "checksum");
    Wire.timestamp(lastModified, "lastModified");
  }
}
