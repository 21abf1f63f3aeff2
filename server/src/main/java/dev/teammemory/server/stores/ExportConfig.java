package dev.teammemory.server.stores;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** {@code tmem.export.*}: the bounds of the Memory Stores NDJSON export. */
@ConfigMapping(prefix = "tmem.export")
public interface ExportConfig {

  /**
   * {@code TMEM_EXPORT_MAX_CONCURRENT}: exports streamed at once by this replica. Each holds a
   * database connection for its whole run, so the bound keeps exports from starving the pool.
   */
  @WithDefault("4")
  int maxConcurrent();

  /**
   * {@code TMEM_EXPORT_STALL_TIMEOUT}: an export whose client has taken no bytes for this long is
   * cut, so that a stalled client cannot hold a connection and an export slot forever.
   */
  @WithDefault("60s")
  Duration stallTimeout();

  /** {@code TMEM_EXPORT_FETCH_SIZE}: rows the cursor brings per round trip (bounds the heap). */
  @WithDefault("32")
  int fetchSize();
}
