package dev.teammemory.protocol;

/** The stable {@code error_code} values of the protocol's error envelope. */
public final class ErrorCodes {

  public static final String INVALID_JSON = "invalid_json";
  public static final String INVALID_BODY = "invalid_body";
  public static final String UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type";
  public static final String INVALID_REPO = "invalid_repo";
  public static final String INVALID_KEY = "invalid_key";
  public static final String INVALID_VIEW = "invalid_view";
  public static final String INVALID_PARAMETER = "invalid_parameter";
  public static final String REQUEST_TOO_LARGE = "request_too_large";
  public static final String ENTRY_TOO_LARGE = "entry_too_large";
  public static final String REPOSITORY_TOO_LARGE = "repository_too_large";
  public static final String TOO_MANY_ENTRIES = TooManyEntries.ERROR_CODE;
  public static final String SECRET_DETECTED = "secret_detected";
  public static final String PRECONDITION_FAILED = "precondition_failed";
  public static final String UNAUTHORIZED = "unauthorized";
  public static final String FORBIDDEN = "forbidden";
  public static final String REPOSITORY_ARCHIVED = "repository_archived";
  public static final String NOT_FOUND = "not_found";
  public static final String METHOD_NOT_ALLOWED = "method_not_allowed";
  public static final String AUTH_PROVIDER_UNAVAILABLE = "auth_provider_unavailable";
  public static final String RATE_LIMITED = "rate_limited";
  public static final String ALREADY_DECIDED = "already_decided";
  public static final String TOO_MANY_WAITING_CHANGES = "too_many_waiting_changes";
  public static final String INTERNAL = "internal_error";

  private ErrorCodes() {}
}
