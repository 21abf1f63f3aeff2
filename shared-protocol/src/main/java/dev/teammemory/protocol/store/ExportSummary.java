package dev.teammemory.protocol.store;

import java.util.OptionalLong;

/**
 * A whole export (MEMORY-STORES.md, "Claude Code's bulk export"): how many memories it had, and the
 * repository version its store line named (our server's extension; absent elsewhere).
 */
public record ExportSummary(long memoryCount, OptionalLong version) {

  public ExportSummary {
    if (memoryCount < 0) {
      throw new IllegalArgumentException("memoryCount is negative: " + memoryCount);
    }
    java.util.Objects.requireNonNull(version, "version is null");
  }
}
