package dev.teammemory.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** The body of a PUT: {@code {"entries": {"key": "content", …}}} and nothing else. */
public record PutRequest(@JsonProperty(required = true) Map<String, String> entries) {

  public PutRequest {
    entries = Wire.sortedCopy(entries, "entries");
  }
}
