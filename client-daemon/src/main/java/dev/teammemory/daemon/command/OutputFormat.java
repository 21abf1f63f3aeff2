package dev.teammemory.daemon.command;

/** {@code --format}: text for people, JSON for scripts. */
public enum OutputFormat {
  text,
  json
}
