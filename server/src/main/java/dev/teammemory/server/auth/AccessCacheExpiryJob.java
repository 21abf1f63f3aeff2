package dev.teammemory.server.auth;

import io.quarkus.scheduler.Scheduled;
import jakarta.inject.Inject;
import java.time.Instant;

/** Drops expired cached permissions, so that a revoked permission is asked for again. */
final class AccessCacheExpiryJob {

  private final RepositoryAccessCache cache;

  @Inject
  AccessCacheExpiryJob(RepositoryAccessCache cache) {
    this.cache = cache;
  }

  @Scheduled(
      every = "${tmem.auth.access-cache-expiry-every:5m}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
  void expire() {
    cache.expire(Instant.now());
  }
}
