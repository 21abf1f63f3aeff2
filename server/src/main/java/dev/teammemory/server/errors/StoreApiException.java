package dev.teammemory.server.errors;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request the Memory Stores API ({@code /v1/…}) refuses: its status and the error the SDKs read,
 * {@code {"type":"error","error":{"type":"…","message":"…",…},"request_id":"…"}}. Mapped once by
 * {@link ErrorResponses}; the message never holds a token or content.
 */
public final class StoreApiException extends RuntimeException {

  public static final String INVALID_REQUEST = "invalid_request_error";
  public static final String AUTHENTICATION = "authentication_error";
  public static final String PERMISSION = "permission_error";
  public static final String NOT_FOUND = "not_found_error";
  public static final String CONFLICT = "conflict_error";
  public static final String PRECONDITION_FAILED = "memory_precondition_failed_error";
  public static final String PATH_CONFLICT = "memory_path_conflict_error";
  public static final String REQUEST_TOO_LARGE = "request_too_large";
  public static final String RATE_LIMIT = "rate_limit_error";
  public static final String API_ERROR = "api_error";
  public static final String OVERLOADED = "overloaded_error";

  private final int status;
  private final String type;
  private final Map<String, Object> fields;
  private final Map<String, String> headers;

  /**
   * @param fields extra members of {@code error} beside its type and message, such as {@code
   *     conflicting_path}
   */
  public StoreApiException(
      int status, String type, String message, Map<String, ?> fields, Map<String, String> headers) {
    // No stack trace: these are expected outcomes.
    super(requireNonNull(message, "message is null"), null, false, false);
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("not an error status: " + status);
    }
    this.status = status;
    this.type = requireNonNull(type, "type is null");
    this.fields = new LinkedHashMap<>(requireNonNull(fields, "fields is null"));
    this.headers = Map.copyOf(requireNonNull(headers, "headers is null"));
  }

  public StoreApiException(int status, String type, String message) {
    this(status, type, message, Map.of(), Map.of());
  }

  /** {@code 400 invalid_request_error}. */
  public static StoreApiException invalid(String message) {
    return new StoreApiException(400, INVALID_REQUEST, message);
  }

  /** {@code 404 not_found_error}. */
  public static StoreApiException notFound(String message) {
    return new StoreApiException(404, NOT_FOUND, message);
  }

  /**
   * A {@code 409} of {@code type}; with {@code x-should-retry: false}, because the SDKs retry a 409
   * otherwise, and a conflict does not go away by itself.
   */
  public static StoreApiException conflict(String type, String message, Map<String, ?> fields) {
    return new StoreApiException(409, type, message, fields, Map.of("x-should-retry", "false"));
  }

  /** The error type the SDKs expect for a status, where nothing more specific is known. */
  public static String typeOf(int status) {
    return switch (status) {
      case 401 -> AUTHENTICATION;
      case 403 -> PERMISSION;
      case 404 -> NOT_FOUND;
      case 409 -> CONFLICT;
      case 413 -> REQUEST_TOO_LARGE;
      case 429 -> RATE_LIMIT;
      case 529 -> OVERLOADED;
      default -> status >= 500 ? API_ERROR : INVALID_REQUEST;
    };
  }

  /** The same refusal of a {@code team_memory} path, told as the Memory Stores API tells it. */
  static StoreApiException of(ApiException refusal) {
    Map<String, String> headers = new LinkedHashMap<>(refusal.headers());
    if (refusal.status() == 409) {
      headers.put("x-should-retry", "false");
    }
    String message = refusal.envelope().error().message();
    return new StoreApiException(
        refusal.status(),
        typeOf(refusal.status()),
        message == null ? "request refused" : message,
        Map.of(),
        headers);
  }

  public int status() {
    return status;
  }

  public String type() {
    return type;
  }

  /** Extra members of {@code error}. */
  public Map<String, Object> fields() {
    return Map.copyOf(fields);
  }

  public Map<String, String> headers() {
    return headers;
  }

  /** The body: {@code {"type":"error","error":{…},"request_id":…}}. */
  public Map<String, Object> body(String requestId) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("type", type);
    error.put("message", getMessage());
    error.putAll(fields);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "error");
    body.put("error", error);
    body.put("request_id", requestId);
    return body;
  }
}
