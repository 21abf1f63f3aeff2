package dev.teammemory.server.memory;

import java.util.UUID;

/**
 * The random ids of the Memory Stores API, shaped like the database's defaults for them (which
 * cover rows a previous release inserts): a prefix and 32 hex digits.
 */
public final class Ids {

  public static final String STORE_PREFIX = "memstore_";
  public static final String MEMORY_PREFIX = "mem_";
  public static final String VERSION_PREFIX = "memver_";

  private Ids() {}

  static String newStore() {
    return STORE_PREFIX + randomHex();
  }

  static String newMemory() {
    return MEMORY_PREFIX + randomHex();
  }

  /** A version's id: its row's id, behind the prefix. */
  public static String ofVersion(long rowId) {
    return VERSION_PREFIX + rowId;
  }

  /** The row id a version id names, or -1 when it is not one. */
  public static long versionRowId(String versionId) {
    if (versionId == null || !versionId.startsWith(VERSION_PREFIX)) {
      return -1;
    }
    String digits = versionId.substring(VERSION_PREFIX.length());
    if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(digits);
  }

  private static String randomHex() {
    return UUID.randomUUID().toString().replace("-", "");
  }
}
