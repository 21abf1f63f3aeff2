package dev.teammemory.daemon.files;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The one way the daemon replaces a file, so that a reader (or a crash at any moment) sees either
 * the old bytes or the new ones, never a mix: write a temporary file beside it, force it to disk,
 * rename it over the target, then force the folder so the rename itself survives a power loss.
 */
public final class AtomicFiles {

  /** The prefix of the temporary files, which scans and watchers ignore. */
  public static final String TEMPORARY_PREFIX = ".tmem-write-";

  private AtomicFiles() {}

  public static void write(Path file, byte[] bytes) throws IOException {
    write(file, bytes, Optional.empty());
  }

  public static void write(Path file, String text) throws IOException {
    write(file, text.getBytes(StandardCharsets.UTF_8), Optional.empty());
  }

  /**
   * Writes a file that has these POSIX permissions from the moment it exists (where the file system
   * has them), so no other user can ever open it.
   */
  public static void write(Path file, byte[] bytes, Set<PosixFilePermission> permissions)
      throws IOException {
    write(file, bytes, Optional.of(Set.copyOf(permissions)));
  }

  private static void write(Path file, byte[] bytes, Optional<Set<PosixFilePermission>> mode)
      throws IOException {
    Path directory = file.toAbsolutePath().getParent();
    Files.createDirectories(directory);
    Path temporary = temporary(directory, bytes, mode);
    try {
      if (mode.isEmpty()) {
        keepMode(file, temporary);
      }
      try {
        Files.move(temporary, file, ATOMIC_MOVE, REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException notAtomic) {
        Files.move(temporary, file, REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
    forceDirectory(directory);
  }

  /**
   * Creates a file that does not exist yet, whole or not at all: a crash never leaves it empty or
   * half written, and when another writer creates it first, theirs stands.
   *
   * @return false when the file already existed, and was left as it is
   */
  public static boolean create(Path file, byte[] bytes, Set<PosixFilePermission> permissions)
      throws IOException {
    Path directory = file.toAbsolutePath().getParent();
    Files.createDirectories(directory);
    Path temporary = temporary(directory, bytes, Optional.of(Set.copyOf(permissions)));
    try {
      // A rename replaces whatever is there; a hard link fails instead, so a concurrent creator
      // wins.
      Files.createLink(file, temporary);
    } catch (FileAlreadyExistsException createdMeanwhile) {
      return false;
    } catch (UnsupportedOperationException noHardLinks) {
      try {
        Files.move(temporary, file);
      } catch (FileAlreadyExistsException createdMeanwhile) {
        return false;
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
    forceDirectory(directory);
    return true;
  }

  /**
   * Gives the replacement the mode of the file it replaces: a memory someone made private with
   * {@code chmod 600} stays private. Set after creation, as the umask would narrow it otherwise.
   */
  private static void keepMode(Path file, Path temporary) throws IOException {
    if (!isPosix(temporary.getParent())) {
      return;
    }
    Set<PosixFilePermission> existing;
    try {
      existing = Files.getPosixFilePermissions(file);
    } catch (NoSuchFileException newFile) {
      return;
    }
    Files.setPosixFilePermissions(temporary, existing);
  }

  /** A temporary file beside the target holding the bytes, forced to disk. */
  private static Path temporary(
      Path directory, byte[] bytes, Optional<Set<PosixFilePermission>> mode) throws IOException {
    Path temporary = directory.resolve(TEMPORARY_PREFIX + UUID.randomUUID() + ".tmp");
    try {
      if (mode.isPresent() && isPosix(directory)) {
        Files.createFile(temporary, PosixFilePermissions.asFileAttribute(mode.get()));
      } else {
        Files.createFile(temporary);
      }
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      return temporary;
    } catch (IOException | RuntimeException failed) {
      Files.deleteIfExists(temporary);
      throw failed;
    }
  }

  /** True for a temporary file of an interrupted or in-progress atomic write. */
  public static boolean isTemporary(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().startsWith(TEMPORARY_PREFIX);
  }

  private static boolean isPosix(Path directory) {
    return directory.getFileSystem().supportedFileAttributeViews().contains("posix");
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
