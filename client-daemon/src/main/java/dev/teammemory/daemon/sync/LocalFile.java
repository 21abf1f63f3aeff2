package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/** A regular file of the team folder as a scan saw it: its key, checksum and size in bytes. */
record LocalFile(String key, Path path, String checksum, long size) {

  LocalFile {
    requireNonNull(key, "key is null");
    requireNonNull(path, "path is null");
    requireNonNull(checksum, "checksum is null");
  }
}
