package dev.teammemory.server.stores;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.protocol.store.MemoryPathRules;
import dev.teammemory.server.errors.StoreApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reading the Memory Stores API's requests: JSON bodies and query parameters, each refused with a
 * {@code 400 invalid_request_error} that names the member and the rule. Unknown members and
 * parameters are ignored (the SDKs add some, such as {@code beta=true}).
 */
final class StoreRequests {

  /** The metadata member that binds a store to its repository. */
  static final String REPO = "repo";

  static final int DEFAULT_LIMIT = 20;
  static final int MAX_LIMIT = 100;
  static final int MAX_FULL_LIMIT = 20;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  private StoreRequests() {}

  /** The body, which must be one JSON object. */
  static ObjectNode object(InputStream body) {
    byte[] bytes;
    try (body) {
      bytes = body.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the request body", e);
    }
    if (bytes.length == 0) {
      throw StoreApiException.invalid("the request body must be a JSON object");
    }
    JsonNode parsed;
    try {
      parsed = JSON.readTree(bytes);
    } catch (IOException e) {
      throw StoreApiException.invalid("the request body is not valid JSON");
    }
    if (!(parsed instanceof ObjectNode object)) {
      throw StoreApiException.invalid("the request body must be a JSON object");
    }
    return object;
  }

  /** A string member; empty when absent or null. */
  static Optional<String> string(ObjectNode body, String member) {
    JsonNode value = body.get(member);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw StoreApiException.invalid(member + " must be a string");
    }
    return Optional.of(value.textValue());
  }

  /** An object member; empty when absent or null. */
  static Optional<ObjectNode> object(ObjectNode body, String member) {
    JsonNode value = body.get(member);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!(value instanceof ObjectNode object)) {
      throw StoreApiException.invalid(member + " must be an object");
    }
    return Optional.of(object);
  }

  /**
   * {@code content}: storable text ({@link UnicodeText}), at most 102,400 UTF-8 bytes (this API's
   * limit; not {@code team_memory}'s).
   */
  static Optional<String> content(ObjectNode body) {
    Optional<String> content = string(body, "content").map(text -> storable(text, "content"));
    if (content.isPresent()
        && UnicodeText.utf8Length(content.get()) > MemoryPathRules.MAX_CONTENT_BYTES) {
      throw StoreApiException.invalid("content must be at most 102400 bytes");
    }
    return content;
  }

  /** The text, unless it cannot be stored ({@link UnicodeText}): then a {@code 400} naming it. */
  static String storable(String text, String what) {
    UnicodeText.violation(text)
        .ifPresent(
            reason -> {
              throw StoreApiException.invalid(what + " " + reason);
            });
    return text;
  }

  /** A {@code content_sha256}: 64 lowercase hex digits, returned as an entry checksum. */
  static String checksum(String value, String member) {
    if (value == null || !SHA256_HEX.matcher(value).matches()) {
      throw StoreApiException.invalid(member + " must be 64 lowercase hexadecimal digits");
    }
    return "sha256:" + value;
  }

  static int limit(String limit, boolean full) {
    int parsed = DEFAULT_LIMIT;
    if (limit != null) {
      try {
        parsed = Integer.parseInt(limit);
      } catch (NumberFormatException e) {
        parsed = 0;
      }
      if (parsed < 1 || parsed > MAX_LIMIT) {
        throw StoreApiException.invalid("limit must be an integer from 1 to " + MAX_LIMIT);
      }
    }
    // Full memories are large: a page of them holds at most 20, and next_page leads on.
    return full ? Math.min(parsed, MAX_FULL_LIMIT) : parsed;
  }

  /** {@code view}: true for {@code full}, false for {@code basic}, {@code byDefault} if absent. */
  static boolean fullView(String view, boolean byDefault) {
    if (view == null) {
      return byDefault;
    }
    return switch (view) {
      case "full" -> true;
      case "basic" -> false;
      default -> throw StoreApiException.invalid("view must be basic or full");
    };
  }

  static boolean flag(String value, String name) {
    if (value == null) {
      return false;
    }
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default -> throw StoreApiException.invalid(name + " must be true or false");
    };
  }

  static Optional<Instant> time(String value, String name) {
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(value).toInstant());
    } catch (DateTimeParseException e) {
      throw StoreApiException.invalid(
          name + " must be an RFC 3339 time, such as 2026-01-31T12:00:00Z");
    }
  }

  /** An opaque cursor for the next page: what kind of listing it continues, and where. */
  static String cursor(char kind, String position) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((kind + ":" + position).getBytes(UTF_8));
  }

  /** Where a {@code page} cursor of this kind of listing continues; empty for the first page. */
  static Optional<String> position(String page, char kind) {
    if (page == null || page.isEmpty()) {
      return Optional.empty();
    }
    String decoded;
    try {
      decoded = new String(Base64.getUrlDecoder().decode(page), UTF_8);
    } catch (IllegalArgumentException e) {
      decoded = "";
    }
    if (decoded.length() < 2 || decoded.charAt(0) != kind || decoded.charAt(1) != ':') {
      throw StoreApiException.invalid(
          "page is not a cursor this listing gave; pass next_page as it came");
    }
    return Optional.of(decoded.substring(2));
  }

  /** A cursor position that is a number (a row id). */
  static Optional<Long> numericPosition(String page, char kind) {
    return position(page, kind)
        .map(
            position -> {
              try {
                return Long.parseLong(position);
              } catch (NumberFormatException e) {
                throw StoreApiException.invalid(
                    "page is not a cursor this listing gave; pass next_page as it came");
              }
            });
  }
}
