package dev.teammemory.server.memory;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** {@code tmem.organization} and {@code tmem.history.*}. */
@ConfigMapping(prefix = "tmem")
interface MemoryConfig {

  /**
   * {@code TMEM_ORGANIZATION}: the {@code organizationId} of every repository. Absent: each
   * repository's owner, as spelled by its first write.
   */
  Optional<String> organization();

  History history();

  /**
   * The retention policy of entry history: a kept version is pruned only when it is beyond the
   * newest {@link #keepVersions()} of its key AND older than {@link #keepFor()}. The newest version
   * of a key (its current state) is never pruned.
   */
  interface History {

    /** {@code TMEM_HISTORY_KEEP_VERSIONS}: the newest versions of each key that are always kept. */
    @WithDefault("50")
    int keepVersions();

    /** {@code TMEM_HISTORY_KEEP_FOR}: every version younger than this is kept. */
    @WithDefault("90d")
    Duration keepFor();
  }
}
