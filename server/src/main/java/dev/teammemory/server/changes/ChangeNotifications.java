package dev.teammemory.server.changes;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The change feeds waiting in this process, by repository. A waiter registers before it reads the
 * repository's state, so that a write committed after that read always finds it here: no wake-up is
 * lost between the check and the wait.
 */
@ApplicationScoped
class ChangeNotifications {

  private final Map<String, Set<CompletableFuture<Boolean>>> waiters = new ConcurrentHashMap<>();

  @Inject
  ChangeNotifications(MeterRegistry registry) {
    Gauge.builder("tmem.change_feed.waiters", this, ChangeNotifications::waiting)
        .description("Change-feed requests waiting in this process for a repository to change")
        .register(registry);
  }

  /** A future that completes with {@code true} when the repository next changes. */
  CompletableFuture<Boolean> register(String slugKey) {
    CompletableFuture<Boolean> waiter = new CompletableFuture<>();
    waiters.compute(
        slugKey,
        (key, registered) -> {
          Set<CompletableFuture<Boolean>> set =
              registered == null ? ConcurrentHashMap.newKeySet() : registered;
          set.add(waiter);
          return set;
        });
    return waiter;
  }

  /** Forgets a waiter that finished without a change (its wait timed out, or it failed). */
  void unregister(String slugKey, CompletableFuture<Boolean> waiter) {
    waiters.computeIfPresent(
        slugKey,
        (key, registered) -> {
          registered.remove(waiter);
          return registered.isEmpty() ? null : registered;
        });
  }

  /** Wakes every waiter of the repository. */
  void changed(String slugKey) {
    Set<CompletableFuture<Boolean>> woken = waiters.remove(slugKey);
    if (woken != null) {
      woken.forEach(waiter -> waiter.complete(true));
    }
  }

  /**
   * Wakes every waiter of every repository, to check again: after the listener was disconnected,
   * notifications may have been missed.
   */
  void changedEverywhere() {
    waiters.keySet().forEach(this::changed);
  }

  /** How many requests are waiting, for tests and metrics. */
  int waiting() {
    return waiters.values().stream().mapToInt(Set::size).sum();
  }
}
