package dev.teammemory.server.stores;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.protocol.Keys;
import dev.teammemory.protocol.store.MemoryPathRules;
import dev.teammemory.server.errors.StoreApiException;

/**
 * Memory paths and entry keys: the path {@code /a/b.md} is the key {@code a/b.md}. A path must keep
 * the Memory Stores API's rules ({@link MemoryPathRules}; their messages are ones Claude Code
 * matches exactly) and, as a key, every rule of PROTOCOL.md "Keys", so that no key exists that a
 * {@code team_memory} client would refuse.
 */
public final class MemoryPaths {

  private MemoryPaths() {}

  /**
   * The key of a memory path, or a {@code 400 invalid_request_error} saying which rule it broke.
   */
  public static String keyOf(String path) {
    MemoryPathRules.violation(path)
        .ifPresent(
            message -> {
              throw StoreApiException.invalid(message);
            });
    String key = path.substring(1);
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
    if (pathPrefix.getBytes(UTF_8).length > MemoryPathRules.MAX_PATH_BYTES) {
      throw StoreApiException.invalid("path must be at most 1024 bytes");
    }
    if (MemoryPathRules.hasControlOrFormatCharacter(pathPrefix)) {
      throw StoreApiException.invalid("path must not contain control or format characters");
    }
    return pathPrefix.substring(1);
  }

  /** The memory path of a key. */
  static String pathOf(String key) {
    return MemoryPathRules.pathOf(key);
  }
}
