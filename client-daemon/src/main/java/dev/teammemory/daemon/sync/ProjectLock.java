package dev.teammemory.daemon.sync;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * One syncing process per project: an OS file lock on {@code <state dir>/lock}, which the OS
 * releases when the process dies (even by {@code kill -9}), so a crashed daemon never blocks its
 * restart.
 */
final class ProjectLock implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private ProjectLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock, or empty when another process (or engine) holds it. */
  static Optional<ProjectLock> tryAcquire(Path stateDir) throws IOException {
    Files.createDirectories(stateDir);
    FileChannel channel =
        FileChannel.open(
            stateDir.resolve("lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.READ);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      return Optional.empty();
    }
    channel.truncate(0);
    channel.write(
        ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
        0);
    return Optional.of(new ProjectLock(channel, lock));
  }

  /** The process id written by the holder, for the message to the user. */
  static String holder(Path stateDir) {
    try {
      return Files.readString(stateDir.resolve("lock")).strip();
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
