package dev.teammemory.server.memory;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.Keys;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.server.errors.ApiException;
import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A PUT body, {@code {"entries": {"key": "content", …}}} and nothing else, checked the way the
 * protocol orders it: JSON syntax ({@code invalid_json}), then shape ({@code invalid_body}), then
 * each entry in body order: its key ({@code invalid_key}), its value ({@code invalid_body}) and its
 * size ({@code entry_too_large}). Errors name the key, never the content.
 */
record PutBody(Map<String, String> entries) {

  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .build();

  PutBody {
    entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  /**
   * @param shownKey what an error may show of a key (or of an unknown field's name): it may hold a
   *     secret
   */
  static PutBody parse(byte[] body, int maxEntryBytes, UnaryOperator<String> shownKey) {
    JsonNode root = syntax(body);
    if (!root.isObject()) {
      throw invalidBody("the body must be a JSON object {\"entries\": {…}}");
    }
    Iterator<String> fields = root.fieldNames();
    while (fields.hasNext()) {
      String field = fields.next();
      if (!field.equals("entries")) {
        throw invalidBody(
            "the body must hold only \"entries\"; it also holds an unknown field",
            Map.of("field", shownKey.apply(field)));
      }
    }
    JsonNode entries = root.get("entries");
    if (entries == null) {
      throw invalidBody("the body has no \"entries\" object");
    }
    if (!entries.isObject()) {
      throw invalidBody("\"entries\" must be an object of key to content strings");
    }
    Map<String, String> parsed = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : entries.properties()) {
      String key = entry.getKey();
      Keys.violation(key)
          .ifPresent(
              reason -> {
                throw ApiException.of(
                    400,
                    ErrorCodes.INVALID_KEY,
                    "invalid key: " + reason,
                    Map.of("key", shownKey.apply(key)));
              });
      JsonNode value = entry.getValue();
      if (!value.isTextual()) {
        throw invalidBody(
            "the content of every entry must be a string, not " + typeOf(value),
            Map.of("key", shownKey.apply(key)));
      }
      String content = value.textValue();
      UnicodeText.violation(content)
          .ifPresent(
              reason -> {
                throw invalidBody("the content " + reason, Map.of("key", shownKey.apply(key)));
              });
      long bytes = UnicodeText.utf8Length(content);
      if (bytes > maxEntryBytes) {
        throw ApiException.of(
            413,
            ErrorCodes.ENTRY_TOO_LARGE,
            "the entry's content is "
                + bytes
                + " UTF-8 bytes, over this server's limit of "
                + maxEntryBytes,
            Map.of("key", shownKey.apply(key), "max_bytes", maxEntryBytes));
      }
      parsed.put(key, content);
    }
    return new PutBody(parsed);
  }

  private static JsonNode syntax(byte[] body) {
    try {
      JsonNode root = STRICT.readTree(body);
      if (root == null || root.isMissingNode()) {
        throw ApiException.of(400, ErrorCodes.INVALID_JSON, "the body is empty; send JSON");
      }
      return root;
    } catch (JsonParseException e) {
      // Jackson's own message may quote the body; say only where it broke.
      JsonLocation at = e.getLocation();
      String where =
          at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw ApiException.of(400, ErrorCodes.INVALID_JSON, "the body is not valid JSON" + where);
    } catch (IOException e) {
      throw ApiException.of(400, ErrorCodes.INVALID_JSON, "the body is not valid JSON");
    }
  }

  private static String typeOf(JsonNode value) {
    return switch (value.getNodeType()) {
      case NULL -> "null";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      default -> value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static ApiException invalidBody(String message) {
    return ApiException.of(400, ErrorCodes.INVALID_BODY, message);
  }

  private static ApiException invalidBody(String message, Map<String, ?> details) {
    return ApiException.of(400, ErrorCodes.INVALID_BODY, message, details);
  }
}
