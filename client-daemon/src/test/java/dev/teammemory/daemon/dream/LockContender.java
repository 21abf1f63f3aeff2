package dev.teammemory.daemon.dream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A separate process that competes for a memory directory's {@code .consolidate-lock}, for {@link
 * ConsolidationLockIT}. It says {@code ready}, waits for the {@code go} file, tries once and says
 * {@code acquired PRIOR}, {@code held PID} or {@code lost}. A holder then waits for the {@code
 * finish} file and releases the lock, rolls it back, or (mode {@code crash}) waits to be killed.
 *
 * <p>Arguments: memory directory, guard file, go file, finish file, mode ({@code release}, {@code
 * rollback} or {@code crash}).
 */
public final class LockContender {

  private static final Duration PATIENCE = Duration.ofMinutes(2);

  private LockContender() {}

  public static void main(String[] args) throws IOException {
    Path memory = Path.of(args[0]);
    Path guard = Path.of(args[1]);
    Path go = Path.of(args[2]);
    Path finish = Path.of(args[3]);
    String mode = args[4];
    System.out.println("ready " + ProcessHandle.current().pid());
    System.out.flush();
    waitFor(go);
    ConsolidationLock lock = ConsolidationLock.forThisProcess(memory, guard, Clock.systemUTC());
    switch (lock.tryAcquire()) {
      case ConsolidationLock.Acquisition.Held held -> System.out.println("held " + held.pid());
      case ConsolidationLock.Acquisition.Lost lost -> System.out.println("lost");
      case ConsolidationLock.Acquisition.Acquired acquired -> {
        System.out.println("acquired " + acquired.priorMillis());
        System.out.flush();
        if (mode.equals("crash")) {
          waitFor(memory.resolve("never"));
        }
        waitFor(finish);
        if (mode.equals("rollback")) {
          lock.rollback(acquired.priorMillis());
        } else {
          lock.release();
        }
        System.out.println("finished");
      }
    }
    System.out.flush();
  }

  private static void waitFor(Path file) {
    long end = System.nanoTime() + PATIENCE.toNanos();
    while (!Files.exists(file) && System.nanoTime() < end) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }
}
