package dev.teammemory.server.changes;

import dev.teammemory.protocol.HashesView;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.memory.EntryStore;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The long poll: the hashes view as soon as a repository's checksum differs from what the client
 * has, or nothing when the wait ends first. A waiting request holds no thread: it is a future that
 * a notification (or the deadline) completes, and only the checks run on worker threads.
 */
@ApplicationScoped
class ChangeFeed {

  private final EntryStore store;
  private final ChangeNotifications notifications;
  private final Executor worker;

  @Inject
  ChangeFeed(EntryStore store, ChangeNotifications notifications) {
    this.store = store;
    this.notifications = notifications;
    this.worker = Infrastructure.getDefaultWorkerPool();
  }

  /**
   * Completes with the hashes view once the checksum differs from {@code since} (at once if it
   * already does), or empty after {@code wait}. Must be called on a thread that may block.
   */
  CompletableFuture<Optional<HashesView>> await(RepositorySlug slug, String since, Duration wait) {
    return check(slug, since, System.nanoTime() + wait.toNanos());
  }

  private CompletableFuture<Optional<HashesView>> check(
      RepositorySlug slug, String since, long deadline) {
    // Register first, read second: a write that commits after the read wakes this waiter.
    CompletableFuture<Boolean> changed = notifications.register(slug.key());
    HashesView current;
    try {
      current = store.hashes(slug);
    } catch (RuntimeException e) {
      notifications.unregister(slug.key(), changed);
      return CompletableFuture.failedFuture(e);
    }
    if (!current.checksum().equals(since)) {
      notifications.unregister(slug.key(), changed);
      return CompletableFuture.completedFuture(Optional.of(current));
    }
    long remaining = deadline - System.nanoTime();
    if (remaining <= 0) {
      notifications.unregister(slug.key(), changed);
      return CompletableFuture.completedFuture(Optional.empty());
    }
    // Woken or timed out, check once more: a timed-out waiter still answers with the latest state.
    return changed
        .completeOnTimeout(false, remaining, TimeUnit.NANOSECONDS)
        .thenComposeAsync(
            woken -> {
              if (!woken) {
                notifications.unregister(slug.key(), changed);
              }
              return check(slug, since, deadline);
            },
            worker);
  }
}
