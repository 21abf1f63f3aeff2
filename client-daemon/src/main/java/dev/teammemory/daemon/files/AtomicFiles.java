package dev.teammemory.daemon.files;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Writes a file so that a reader (or a crash at any moment) sees either the old bytes or the new
 * ones, never a mix: write a temporary file beside it, force it to disk, rename it over the target.
 */
public final class AtomicFiles {

  /** The prefix of the temporary files, which scans and watchers ignore. */
  public static final String TEMPORARY_PREFIX = ".tmem-write-";

  private AtomicFiles() {}

  public static void write(Path file, byte[] bytes) throws IOException {
    Path directory = file.toAbsolutePath().getParent();
    Files.createDirectories(directory);
    Path temporary = directory.resolve(TEMPORARY_PREFIX + UUID.randomUUID() + ".tmp");
    try {
      try (FileChannel channel =
          FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.move(temporary, file, ATOMIC_MOVE, REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temporary);
    }
    forceDirectory(directory);
  }

  /** True for a temporary file of an interrupted or in-progress atomic write. */
  public static boolean isTemporary(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().startsWith(TEMPORARY_PREFIX);
  }

  private static void forceDirectory(Path directory) {
    // Makes the rename itself durable where the platform allows opening a directory (Linux, macOS).
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Best effort: the rename is atomic either way, only its durability across power loss
      // differs.
    }
  }
}
