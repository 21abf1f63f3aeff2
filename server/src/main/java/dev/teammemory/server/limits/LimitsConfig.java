package dev.teammemory.server.limits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code tmem.limits.*}: the protocol's limits, per deployment. */
@ConfigMapping(prefix = "tmem.limits")
public interface LimitsConfig {

  /** {@code TMEM_LIMITS_MAX_ENTRIES}: live entries per repository, counted after the merge. */
  @WithDefault("2000")
  int maxEntries();

  /** {@code TMEM_LIMITS_MAX_ENTRY_BYTES}: UTF-8 bytes of one entry's content. */
  @WithDefault("250000")
  int maxEntryBytes();

  /** {@code TMEM_LIMITS_MAX_BODY_BYTES}: bytes of one PUT body. */
  @WithDefault("1048576")
  int maxBodyBytes();

  /** {@code TMEM_LIMITS_MAX_REPOSITORY_BYTES}: content bytes of a repository after the merge. */
  @WithDefault("50000000")
  long maxRepositoryBytes();

  /**
   * {@code TMEM_LIMITS_MAX_PAGE_BYTES}: the content bytes after which a page that carries contents
   * ends ({@code team_memory} history, the store API's versions in the full view); a page always
   * carries at least one item, which is at most one entry's limit.
   */
  @WithDefault("1000000")
  long maxPageBytes();
}
