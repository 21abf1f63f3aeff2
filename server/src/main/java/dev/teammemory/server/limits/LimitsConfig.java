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

  /** {@code tmem.limits.reads.*}: expensive reads, per caller and per replica. */
  Reads reads();

  /** {@code tmem.limits.writes.*}: each caller's write rate. */
  Writes writes();

  /**
   * The reads that cost the server memory or a database connection for long: the full {@code
   * team_memory} GET, its history, the store API's listings and export. Each replica bounds them on
   * its own (N replicas admit N times as much in all).
   */
  interface Reads {

    /** {@code TMEM_LIMITS_READS_MAX_CONCURRENT}: expensive reads this replica serves at once. */
    @WithDefault("16")
    int maxConcurrent();

    /**
     * {@code TMEM_LIMITS_READS_MAX_CONCURRENT_PER_CALLER}: expensive reads one caller (one user or
     * token) has at once on this replica; the next gets a 429 with retry-after.
     */
    @WithDefault("4")
    int maxConcurrentPerCaller();

    /**
     * {@code TMEM_LIMITS_READS_MAX_BUFFERED_BYTES}: the heap all expensive reads being answered may
     * hold together, as estimated before each starts (a full GET holds about four times its
     * repository's content bytes). A read estimated above it is served only alone.
     */
    @WithDefault("100000000")
    long maxBufferedBytes();

    /**
     * {@code TMEM_LIMITS_READS_MAX_EXPORTS_PER_CALLER}: exports one caller streams at once on this
     * replica (TMEM_EXPORT_MAX_CONCURRENT bounds them all).
     */
    @WithDefault("2")
    int maxExportsPerCaller();
  }

  /**
   * Each caller's writes (PUT, POST, PATCH, DELETE of either API) pass two token buckets: one of
   * requests, one of body bytes. A full bucket lets a burst through at once; it then refills at its
   * rate. Over either, the write is refused with 429 and retry-after, for that caller only.
   */
  interface Writes {

    /**
     * {@code TMEM_LIMITS_WRITES_BURST}: writes a caller may send at once: a first sync of a
     * repository at the entry limit (2,000 files, one request each) fits.
     */
    @WithDefault("2500")
    long burst();

    /** {@code TMEM_LIMITS_WRITES_PER_SECOND}: the rate the writes bucket refills at. */
    @WithDefault("10")
    double perSecond();

    /**
     * {@code TMEM_LIMITS_WRITES_BURST_BYTES}: body bytes a caller may send at once: a repository at
     * the byte limit re-uploaded after a server loss, with JSON's escaping, fits.
     */
    @WithDefault("64000000")
    long burstBytes();

    /** {@code TMEM_LIMITS_WRITES_BYTES_PER_SECOND}: the rate the bytes bucket refills at. */
    @WithDefault("250000")
    long bytesPerSecond();
  }
}
