package dev.teammemory.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every error body of both APIs, read by one type. The {@code team_memory} one is {@code {"error":
 * {"message": "…", "details": {"error_code": "…", …}}}} (the too-many-entries body has no message,
 * which is why {@code message} is optional); the Memory Stores one is {@code {"type": "error",
 * "error": {"type": "invalid_request_error", "message": "…"}}}, without details.
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
    return new ErrorEnvelope(new Body(null, requireNonNull(message, "message is null"), details));
  }

  public static ErrorEnvelope of(String errorCode, String message) {
    return of(errorCode, message, Map.of());
  }

  /**
   * The stable code of the error: {@code details.error_code} on {@code team_memory}, the error's
   * {@code type} on the Memory Stores API; empty when the body has neither.
   */
  public Optional<String> errorCode() {
    return Optional.ofNullable(error.details().get("error_code"))
        .map(Object::toString)
        .or(() -> Optional.ofNullable(error.type()));
  }

  /** The human message, when the body has a non-blank one. */
  public Optional<String> message() {
    return Optional.ofNullable(error.message()).filter(message -> !message.isBlank());
  }

  /**
   * {@code error}: the Memory Stores API's error {@code type}, a human message (absent only in the
   * too-many-entries body) and the {@code team_memory} details (empty on the Memory Stores API).
   */
  public record Body(
      @JsonInclude(JsonInclude.Include.NON_NULL) String type,
      @JsonInclude(JsonInclude.Include.NON_NULL) String message,
      Map<String, Object> details) {

    @JsonCreator
    public Body {
      details =
          details == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /** A {@code team_memory} body: a message and details. */
    public Body(String message, Map<String, Object> details) {
      this(null, message, requireNonNull(details, "details is null"));
    }
  }
}
