package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every error body: {@code {"error": {"message": "…", "details": {"error_code": "…", …}}}}. The
 * too-many-entries body has no message, which is why {@code message} is optional.
 */
public record ErrorEnvelope(@JsonProperty(required = true) Body error) {

  public ErrorEnvelope {
    requireNonNull(error, "error is null");
  }

  /** An error with a message and a stable {@code error_code}, plus optional extra details. */
  public static ErrorEnvelope of(String errorCode, String message, Map<String, ?> extraDetails) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("error_code", requireNonNull(errorCode, "errorCode is null"));
    details.putAll(extraDetails);
    return new ErrorEnvelope(new Body(requireNonNull(message, "message is null"), details));
  }

  public static ErrorEnvelope of(String errorCode, String message) {
    return of(errorCode, message, Map.of());
  }

  /** The {@code error_code}, when the body has one. */
  public Optional<String> errorCode() {
    return Optional.ofNullable(error.details().get("error_code")).map(Object::toString);
  }

  /** {@code error}: a human message (absent only in the too-many-entries body) and details. */
  public record Body(
      @JsonInclude(JsonInclude.Include.NON_NULL) String message,
      @JsonProperty(required = true) Map<String, Object> details) {

    public Body {
      requireNonNull(details, "details is null");
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
  }
}
