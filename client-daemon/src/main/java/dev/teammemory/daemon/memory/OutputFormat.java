package dev.teammemory.daemon.memory;

/** {@code --format}: text for people, JSON for scripts. */
public enum OutputFormat {
  text,
  json
}
