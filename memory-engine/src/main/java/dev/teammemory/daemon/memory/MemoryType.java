package dev.teammemory.daemon.memory;

import java.util.Locale;
import java.util.Optional;

/** The closed taxonomy of auto-memory topics, declared by a topic file's {@code type}. */
public enum MemoryType {
  /** Who the user is: role, preferences, knowledge. */
  USER,
  /** Corrections and confirmations of how to work. */
  FEEDBACK,
  /** Project context that cannot be read from the code. */
  PROJECT,
  /** Pointers to external systems and how to use them. */
  REFERENCE;

  /** The name as written in frontmatter and manifests. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type a frontmatter value names; unknown values are empty and the file still loads. */
  public static Optional<MemoryType> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String normalized = value.strip().toLowerCase(Locale.ROOT);
    for (MemoryType type : values()) {
      if (type.wireName().equals(normalized)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
