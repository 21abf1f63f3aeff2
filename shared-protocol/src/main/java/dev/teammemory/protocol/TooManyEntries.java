package dev.teammemory.protocol;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The entry-cap error, byte-for-byte as the reference client expects it: {@code {"error":
 * {"details": {"error_code": "team_memory_too_many_entries", "max_entries": N, "received_entries":
 * M}}}}, with no message. A client learns the server's cap from it.
 */
public record TooManyEntries(int maxEntries, int receivedEntries) {

  public static final String ERROR_CODE = "team_memory_too_many_entries";

  public TooManyEntries {
    if (maxEntries < 0 || receivedEntries < 0) {
      throw new IllegalArgumentException(
          "entry counts are negative: " + maxEntries + ", " + receivedEntries);
    }
  }

  public ErrorEnvelope toEnvelope() {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("error_code", ERROR_CODE);
    details.put("max_entries", maxEntries);
    details.put("received_entries", receivedEntries);
    return new ErrorEnvelope(new ErrorEnvelope.Body(null, details));
  }

  /** Reads the cap back out of an error body, when it is this error. */
  public static Optional<TooManyEntries> from(ErrorEnvelope envelope) {
    Map<String, Object> details = envelope.error().details();
    if (!ERROR_CODE.equals(details.get("error_code"))
        || !(details.get("max_entries") instanceof Number max)
        || !(details.get("received_entries") instanceof Number received)) {
      return Optional.empty();
    }
    return Optional.of(new TooManyEntries(max.intValue(), received.intValue()));
  }
}
