package dev.teammemory.daemon.dream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsolidationLockTest {

  private static final long ME = 4242;
  private static final long OTHER = 777;

  @TempDir Path home;

  private Path memory;
  private Path lockFile;
  private final Clock clock = Clock.systemUTC();

  @BeforeEach
  void memory() throws IOException {
    memory = Files.createDirectories(home.resolve("memory"));
    lockFile = memory.resolve(".consolidate-lock");
  }

  private ConsolidationLock lock(long pid, boolean otherAlive) {
    return new ConsolidationLock(
        memory,
        home.resolve("state/guard"),
        clock,
        pid,
        candidate -> candidate == ME || (otherAlive && candidate == OTHER));
  }

  private void heldBy(long pid, Duration ago) throws IOException {
    Files.writeString(lockFile, Long.toString(pid));
    Files.setLastModifiedTime(lockFile, FileTime.from(Instant.now().minus(ago)));
  }

  @Test
  void theFirstConsolidationFindsNoFileAndTakesTheLockWithItsPid() throws IOException {
    ConsolidationLock lock = lock(ME, false);

    assertThat(lock.lastConsolidatedAt()).isEqualTo(Instant.EPOCH);
    assertThat(lock.tryAcquire()).isEqualTo(new ConsolidationLock.Acquisition.Acquired(0));
    assertThat(Files.readString(lockFile)).isEqualTo("4242");
  }

  @Test
  void aLiveHolderWithinTheHourKeepsTheLock() throws IOException {
    heldBy(OTHER, Duration.ofMinutes(20));

    assertThat(lock(ME, true).tryAcquire()).isInstanceOf(ConsolidationLock.Acquisition.Held.class);
    assertThat(((ConsolidationLock.Acquisition.Held) lock(ME, true).tryAcquire()).pid())
        .isEqualTo(OTHER);
    assertThat(Files.readString(lockFile)).isEqualTo("777");
  }

  @Test
  void aDeadHoldersLockIsTakenOver() throws IOException {
    heldBy(OTHER, Duration.ofMinutes(20));
    long prior = Files.getLastModifiedTime(lockFile).toMillis();

    assertThat(lock(ME, false).tryAcquire())
        .isEqualTo(new ConsolidationLock.Acquisition.Acquired(prior));
    assertThat(Files.readString(lockFile)).isEqualTo("4242");
  }

  @Test
  void aLiveHolderOlderThanAnHourIsStaleBecausePidsAreReused() throws IOException {
    heldBy(OTHER, Duration.ofMinutes(61));

    assertThat(lock(ME, true).tryAcquire())
        .isInstanceOf(ConsolidationLock.Acquisition.Acquired.class);
  }

  @Test
  void aBodyThatIsNoPidHoldsNothing() throws IOException {
    Files.writeString(lockFile, "");

    assertThat(lock(ME, true).tryAcquire())
        .isInstanceOf(ConsolidationLock.Acquisition.Acquired.class);
  }

  @Test
  void rollbackRestoresThePriorMtimeAndClearsThePid() throws IOException {
    heldBy(OTHER, Duration.ofDays(3));
    long prior = Files.getLastModifiedTime(lockFile).toMillis();
    ConsolidationLock lock = lock(ME, false);
    lock.tryAcquire();

    lock.rollback(prior);

    assertThat(Files.getLastModifiedTime(lockFile).toMillis()).isEqualTo(prior);
    assertThat(Files.readString(lockFile)).isEmpty();
  }

  @Test
  void rollbackOfTheFirstConsolidationRemovesTheFile() throws IOException {
    ConsolidationLock lock = lock(ME, false);
    lock.tryAcquire();

    lock.rollback(0);

    assertThat(lockFile).doesNotExist();
  }

  @Test
  void releaseMarksTheConsolidationTimeAndFreesTheLock() throws IOException {
    heldBy(OTHER, Duration.ofDays(3));
    ConsolidationLock lock = lock(ME, false);
    lock.tryAcquire();

    lock.release();

    assertThat(Files.readString(lockFile)).isEmpty();
    assertThat(lock.lastConsolidatedAt()).isAfter(Instant.now().minus(Duration.ofMinutes(1)));
    assertThat(lock(OTHER, true).tryAcquire())
        .isInstanceOf(ConsolidationLock.Acquisition.Acquired.class);
  }
}
