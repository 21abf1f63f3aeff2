package dev.teammemory.server.memory;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** {@code tmem.organization}, {@code tmem.history.*} and {@code tmem.review.*}. */
@ConfigMapping(prefix = "tmem")
interface MemoryConfig {

  /**
   * {@code TMEM_ORGANIZATION}: the {@code organizationId} of every repository. Absent: each
   * repository's owner, as spelled by its first write.
   */
  Optional<String> organization();

  History history();

  Review review();

  /**
   * The bounds of what waits for review: retention never prunes a waiting change, so these keep a
   * writer who does not review from piling up versions nobody has approved.
   */
  interface Review {

    /**
     * {@code TMEM_REVIEW_MAX_WAITING_PER_KEY}: the most changes of one key that wait at once; a
     * write over it is refused ({@code 429 too_many_waiting_changes}) until a reviewer decides.
     */
    @WithDefault("50")
    int maxWaitingPerKey();

    /**
     * {@code TMEM_REVIEW_MAX_WAITING_BYTES}: the most content bytes the changes waiting in one
     * repository hold together; absent, the repository's own byte limit.
     */
    Optional<Long> maxWaitingBytes();
  }

  /**
   * The retention policy of entry history: a kept version is pruned when it is beyond the newest
   * {@link #keepVersions()} of its key AND older than {@link #keepFor()}, and whatever its age when
   * its key's history is over {@link #maxVersionsPerKey()} or {@link #maxBytesPerKey()} (oldest
   * first). The newest version of a key (its current state) is never pruned, and one key's history
   * never evicts another's.
   */
  interface History {

    /** {@code TMEM_HISTORY_KEEP_VERSIONS}: the newest versions of each key kept at any age. */
    @WithDefault("50")
    int keepVersions();

    /** {@code TMEM_HISTORY_KEEP_FOR}: versions younger than this are kept, within the bounds. */
    @WithDefault("90d")
    Duration keepFor();

    /**
     * {@code TMEM_HISTORY_MAX_VERSIONS_PER_KEY}: the most versions one key keeps, whatever their
     * age; the oldest go first, on the write that goes over.
     */
    @WithDefault("200")
    int maxVersionsPerKey();

    /**
     * {@code TMEM_HISTORY_MAX_BYTES_PER_KEY}: the most content bytes one key's versions keep
     * together (its current version is kept even when it alone is larger).
     */
    @WithDefault("5000000")
    long maxBytesPerKey();

    /** {@code TMEM_HISTORY_PAGE_VERSIONS}: the most versions one page of history carries. */
    @WithDefault("50")
    int pageVersions();
  }
}
