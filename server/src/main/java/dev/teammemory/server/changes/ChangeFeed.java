package dev.teammemory.server.changes;

import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.server.auth.AuthorizedRepository;
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
import java.util.function.Supplier;

/**
 * The long poll: an answer as soon as a repository differs from what the client has (its checksum,
 * or its version), or nothing when the wait ends first. A waiting request holds no thread: it is a
 * future that a notification (or the deadline) completes, and only the checks run on worker
 * threads. Each caller waits for their own view of the repository (a change waiting for review
 * wakes a teammate's waiter, whose view has not changed, and it waits on).
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
  CompletableFuture<Optional<HashesView>> await(
      AuthorizedRepository target, String since, Duration wait) {
    return await(
        target.slug(),
        () -> Optional.of(store.hashes(target)).filter(view -> !view.checksum().equals(since)),
        wait);
  }

  /**
   * Completes with the keys written after {@code afterVersion} once the repository's version is
   * above it (or with a reset), or empty after {@code wait}. Must be called on a thread that may
   * block.
   */
  CompletableFuture<Optional<VersionChanges>> awaitAfter(
      AuthorizedRepository target, long afterVersion, Duration wait) {
    return await(target.slug(), () -> store.changesAfter(target, afterVersion), wait);
  }

  private <T> CompletableFuture<Optional<T>> await(
      RepositorySlug slug, Supplier<Optional<T>> probe, Duration wait) {
    return check(slug, probe, System.nanoTime() + wait.toNanos());
  }

  private <T> CompletableFuture<Optional<T>> check(
      RepositorySlug slug, Supplier<Optional<T>> probe, long deadline) {
    // Register first, read second: a write that commits after the read wakes this waiter.
    CompletableFuture<Boolean> changed = notifications.register(slug.key());
    Optional<T> answer;
    try {
      answer = probe.get();
    } catch (RuntimeException e) {
      notifications.unregister(slug.key(), changed);
      return CompletableFuture.failedFuture(e);
    }
    if (answer.isPresent()) {
      notifications.unregister(slug.key(), changed);
      return CompletableFuture.completedFuture(answer);
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
              return check(slug, probe, deadline);
            },
            worker);
  }
}
