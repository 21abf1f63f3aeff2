package dev.teammemory.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The JSON mapping of the wire records: strict about required fields and unknown-tolerant. */
public final class ProtocolJson {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  private ProtocolJson() {}

  /** A shared, thread-safe mapper; do not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }
}
