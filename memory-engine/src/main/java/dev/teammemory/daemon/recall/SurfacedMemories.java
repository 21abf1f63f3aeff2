package dev.teammemory.daemon.recall;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a session has already been shown: those files are not offered again, and their sizes count
 * against the session's budget.
 *
 * @param bytes the content bytes surfaced so far
 */
public record SurfacedMemories(Set<Path> paths, long bytes) {

  public static final SurfacedMemories NONE = new SurfacedMemories(Set.of(), 0);

  public SurfacedMemories {
    paths = Set.copyOf(paths);
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + bytes);
    }
  }

  public boolean contains(Path file) {
    return paths.contains(file.toAbsolutePath().normalize());
  }

  public SurfacedMemories plus(List<RecalledMemory> memories) {
    Set<Path> more = new LinkedHashSet<>(paths);
    long total = bytes;
    for (RecalledMemory memory : memories) {
      more.add(memory.file().toAbsolutePath().normalize());
      total += memory.bytes();
    }
    return new SurfacedMemories(more, total);
  }
}
