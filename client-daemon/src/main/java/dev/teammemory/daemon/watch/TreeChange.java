package dev.teammemory.daemon.watch;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * One change under a watched tree. {@link Kind#OVERFLOW} means events were lost and the whole tree
 * must be looked at again; its path is the root.
 */
public record TreeChange(Path path, Kind kind) {

  public TreeChange {
    requireNonNull(path, "path is null");
    requireNonNull(kind, "kind is null");
  }

  /** What happened to the path. */
  public enum Kind {
    CREATED,
    MODIFIED,
    DELETED,
    OVERFLOW
  }
}
