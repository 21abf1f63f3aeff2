package dev.teammemory.daemon.dream;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.LongPredicate;

/**
 * {@code <memory>/.consolidate-lock}, as the reference keeps it: the file's body is the PID of the
 * process consolidating, and its modification time is when memory was last consolidated. A holder
 * counts only while its process lives and for at most {@value #STALE_MINUTES} minutes (PIDs are
 * reused). Taking it is write-then-verify: write our PID, read it back, and give way if another
 * process's PID is there. Between tmem processes the check and the write also happen under an OS
 * file lock on a file in tmem's state directory, so two of them racing always end with exactly one
 * holder; Claude Code itself only writes and verifies.
 */
final class ConsolidationLock {

  static final String FILE_NAME = ".consolidate-lock";
  static final long STALE_MINUTES = 60;
  static final Duration HOLDER_STALE = Duration.ofMinutes(STALE_MINUTES);

  /** The result of trying to take the lock. */
  sealed interface Acquisition {
    /**
     * Ours now.
     *
     * @param priorMillis the lock file's modification time before we took it, 0 when there was no
     *     file: what a rollback restores
     */
    record Acquired(long priorMillis) implements Acquisition {}

    /** A live process holds it and took it less than an hour ago. */
    record Held(long pid, Instant since) implements Acquisition {
      public Held {
        requireNonNull(since, "since is null");
      }
    }

    /** Another process wrote its PID between our write and our check, and won. */
    record Lost(OptionalLong winner) implements Acquisition {
      public Lost {
        requireNonNull(winner, "winner is null");
      }
    }
  }

  private final Path file;
  private final Path guard;
  private final Clock clock;
  private final long pid;
  private final LongPredicate alive;

  /**
   * @param guard a file in tmem's own state directory, locked while taking the lock
   * @param alive whether a process with that PID is running
   */
  ConsolidationLock(Path memoryDirectory, Path guard, Clock clock, long pid, LongPredicate alive) {
    this.file = requireNonNull(memoryDirectory, "memoryDirectory is null").resolve(FILE_NAME);
    this.guard = requireNonNull(guard, "guard is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.pid = pid;
    this.alive = requireNonNull(alive, "alive is null");
  }

  static ConsolidationLock forThisProcess(Path memoryDirectory, Path guard, Clock clock) {
    return new ConsolidationLock(
        memoryDirectory, guard, clock, ProcessHandle.current().pid(), ConsolidationLock::isRunning);
  }

  static boolean isRunning(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  Path file() {
    return file;
  }

  /** When memory was last consolidated: the lock file's mtime, or the epoch when there is none. */
  Instant lastConsolidatedAt() throws IOException {
    try {
      return Files.getLastModifiedTime(file).toInstant();
    } catch (NoSuchFileException never) {
      return Instant.EPOCH;
    }
  }

  /** The current holder, if a live process holds the lock and is not stale. */
  java.util.Optional<Acquisition.Held> holder() throws IOException {
    Instant modified;
    String body;
    try {
      modified = Files.getLastModifiedTime(file).toInstant();
      body = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException free) {
      return java.util.Optional.empty();
    }
    OptionalLong holder = parse(body);
    boolean fresh = Duration.between(modified, clock.instant()).compareTo(HOLDER_STALE) < 0;
    if (fresh && holder.isPresent() && alive.test(holder.getAsLong())) {
      return java.util.Optional.of(new Acquisition.Held(holder.getAsLong(), modified));
    }
    return java.util.Optional.empty();
  }

  Acquisition tryAcquire() throws IOException {
    Files.createDirectories(guard.getParent());
    try (FileChannel channel =
            FileChannel.open(guard, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock serialised = channel.lock()) {
      java.util.Optional<Acquisition.Held> holder = holder();
      if (holder.isPresent()) {
        return holder.get();
      }
      long prior;
      try {
        prior = Files.getLastModifiedTime(file).toMillis();
      } catch (NoSuchFileException first) {
        prior = 0;
      }
      Files.createDirectories(file.getParent());
      Files.writeString(file, Long.toString(pid), StandardCharsets.UTF_8);
      OptionalLong verify;
      try {
        verify = parse(Files.readString(file, StandardCharsets.UTF_8));
      } catch (NoSuchFileException removed) {
        return new Acquisition.Lost(OptionalLong.empty());
      }
      if (verify.isEmpty() || verify.getAsLong() != pid) {
        return new Acquisition.Lost(verify);
      }
      return new Acquisition.Acquired(prior);
    }
  }

  /**
   * Marks a consolidation finished: the PID is cleared, and the mtime, now, is the new "last
   * consolidated" time.
   */
  void release() throws IOException {
    Files.writeString(file, "", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(file, FileTime.from(clock.instant()));
  }

  /**
   * Undoes a failed or cancelled consolidation: the mtime goes back to what it was, so the time
   * gate opens again at once, and the PID is cleared so no live process looks like a holder. With
   * no file before, the file goes.
   */
  void rollback(long priorMillis) throws IOException {
    if (priorMillis == 0) {
      Files.deleteIfExists(file);
      return;
    }
    Files.writeString(file, "", StandardCharsets.UTF_8);
    Files.setLastModifiedTime(file, FileTime.fromMillis(priorMillis));
  }

  private static OptionalLong parse(String body) {
    try {
      return OptionalLong.of(Long.parseLong(body.strip()));
    } catch (NumberFormatException notAPid) {
      return OptionalLong.empty();
    }
  }
}
