package dev.teammemory.daemon.login;

import java.time.Duration;

/**
 * Waits between polls of GitHub's token endpoint. The command waits for real; tests pass one that
 * records the waits and advances their clock, so no test sleeps.
 */
@FunctionalInterface
interface Sleeper {

  void sleep(Duration duration) throws InterruptedException;

  static Sleeper system() {
    return Thread::sleep;
  }
}
