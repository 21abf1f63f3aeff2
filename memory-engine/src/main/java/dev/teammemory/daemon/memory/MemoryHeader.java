package dev.teammemory.daemon.memory;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * What a topic file says about itself in its frontmatter, and when it last changed: all a selector
 * sees when it decides which memories are relevant.
 *
 * @param filename the path relative to the memory directory, with {@code /} separators
 * @param file the absolute path
 */
public record MemoryHeader(
    String filename,
    Path file,
    Instant modified,
    Optional<String> name,
    Optional<String> description,
    Optional<MemoryType> type) {

  public MemoryHeader {
    requireNonNull(filename, "filename is null");
    requireNonNull(file, "file is null");
    requireNonNull(modified, "modified is null");
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    requireNonNull(type, "type is null");
  }
}
