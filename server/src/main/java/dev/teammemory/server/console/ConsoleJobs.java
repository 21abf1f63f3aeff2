package dev.teammemory.server.console;

import io.quarkus.scheduler.Scheduled;
import jakarta.inject.Inject;

/** The console's scheduled job: a one-line delegate, which tests call directly. */
final class ConsoleJobs {

  private final ConsoleSessions sessions;

  @Inject
  ConsoleJobs(ConsoleSessions sessions) {
    this.sessions = sessions;
  }

  /** Deletes expired sessions (and so their encrypted tokens), codes and device sign-ins. */
  @Scheduled(
      every = "${tmem.console.expiry-every:10m}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
  void expire() {
    sessions.expire();
  }
}
