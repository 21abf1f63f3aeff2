package dev.teammemory.daemon.install;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A service unit file on disk. Installing never replaces a different file unless forced, and
 * removing never deletes a file that {@code tmem daemon install} did not write unless forced.
 *
 * @param path where the unit lives
 */
record UnitFile(Path path) {

  /** Every unit the install writes carries this line; uninstall looks for it. */
  static final String MARKER = "Written by \"tmem daemon install\"";

  /** Readable by all, as service managers expect; the unit holds no secret. */
  private static final String UNIT_PERMISSIONS = "rw-r--r--";

  UnitFile {
    requireNonNull(path, "path is null");
  }

  /** What an install did. */
  sealed interface Installation {
    record Created() implements Installation {}

    record Unchanged() implements Installation {}

    record Replaced() implements Installation {}

    /** A different file is there and was left alone. */
    record Conflict() implements Installation {}
  }

  /** Writes {@code content} unless a different file is there and {@code force} is off. */
  Installation install(String content, boolean force) throws IOException {
    if (Files.exists(path)) {
      String existing = Files.readString(path, StandardCharsets.UTF_8);
      if (existing.equals(content)) {
        return new Installation.Unchanged();
      }
      if (!force) {
        return new Installation.Conflict();
      }
      write(path, content, UNIT_PERMISSIONS);
      return new Installation.Replaced();
    }
    write(path, content, UNIT_PERMISSIONS);
    return new Installation.Created();
  }

  boolean exists() {
    return Files.exists(path);
  }

  /** Whether the file carries the install's marker line. */
  boolean writtenByInstall() throws IOException {
    return Files.readString(path, StandardCharsets.UTF_8).contains(MARKER);
  }

  void delete() throws IOException {
    Files.deleteIfExists(path);
  }

  /**
   * Writes through a temporary file in the same folder and moves it into place, so a service
   * manager never reads half a unit. {@code posixPermissions} (as {@code rw-------}) apply where
   * the file system has them.
   */
  static void write(Path target, String content, String posixPermissions) throws IOException {
    Files.createDirectories(target.getParent());
    AtomicFiles.write(
        target,
        content.getBytes(StandardCharsets.UTF_8),
        PosixFilePermissions.fromString(posixPermissions));
  }
}
