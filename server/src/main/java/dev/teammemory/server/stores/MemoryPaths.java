package dev.teammemory.server.stores;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.protocol.Keys;
import dev.teammemory.server.errors.StoreApiException;
import java.text.Normalizer;

/**
 * Memory paths and entry keys: the path {@code /a/b.md} is the key {@code a/b.md}. A path must keep
 * the Memory Stores API's rules (their messages are ones Claude Code matches exactly) and, as a
 * key, every rule of PROTOCOL.md "Keys", so that no key exists that a {@code team_memory} client
 * would refuse.
 */
public final class MemoryPaths {

  static final int MAX_PATH_BYTES = 1024;
  static final int MAX_SEGMENTS = 20;

  private MemoryPaths() {}

  /**
   * The key of a memory path, or a {@code 400 invalid_request_error} saying which rule it broke.
   */
  public static String keyOf(String path) {
    if (path == null || path.isEmpty()) {
      throw StoreApiException.invalid("path is required");
    }
    if (path.getBytes(UTF_8).length > MAX_PATH_BYTES) {
      throw StoreApiException.invalid("path must be at most 1024 bytes");
    }
    if (!path.startsWith("/")) {
      throw StoreApiException.invalid("path must start with /");
    }
    if (path.equals("/") || path.endsWith("/")) {
      throw StoreApiException.invalid("path must name a memory, not end with /");
    }
    String key = path.substring(1);
    String[] segments = key.split("/", -1);
    if (segments.length > MAX_SEGMENTS) {
      throw StoreApiException.invalid("path must be at most 20 segments deep");
    }
    for (String segment : segments) {
      if (segment.equals(".") || segment.equals("..")) {
        throw StoreApiException.invalid("path must not contain . or .. segments");
      }
      if (segment.isEmpty()) {
        throw StoreApiException.invalid("path must not contain empty segments");
      }
    }
    requireNoControlOrFormat(path);
    if (!Normalizer.isNormalized(path, Normalizer.Form.NFC)) {
      throw StoreApiException.invalid("path must be NFC-normalized");
    }
    Keys.violation(key)
        .ifPresent(
            reason -> {
              throw StoreApiException.invalid(
                  "path is not a valid team memory key: " + reason.replace("key ", "the key "));
            });
    return key;
  }

  /**
   * The key prefix of a listing's {@code path_prefix} ({@code /} or a path ending in {@code /}).
   */
  static String keyPrefixOf(String pathPrefix) {
    if (pathPrefix == null || pathPrefix.equals("/")) {
      return "";
    }
    if (!pathPrefix.startsWith("/") || !pathPrefix.endsWith("/")) {
      throw StoreApiException.invalid("path_prefix must start and end with /");
    }
    if (pathPrefix.getBytes(UTF_8).length > MAX_PATH_BYTES) {
      throw StoreApiException.invalid("path must be at most 1024 bytes");
    }
    requireNoControlOrFormat(pathPrefix);
    return pathPrefix.substring(1);
  }

  /** The memory path of a key. */
  static String pathOf(String key) {
    return "/" + key;
  }

  private static void requireNoControlOrFormat(String path) {
    for (int at = 0; at < path.length(); ) {
      int codePoint = path.codePointAt(at);
      int type = Character.getType(codePoint);
      if (type == Character.CONTROL
          || type == Character.FORMAT
          || codePoint == 0x2028
          || codePoint == 0x2029) {
        throw StoreApiException.invalid("path must not contain control or format characters");
      }
      at += Character.charCount(codePoint);
    }
  }
}
