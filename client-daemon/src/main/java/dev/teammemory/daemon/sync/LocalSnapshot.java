package dev.teammemory.daemon.sync;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One scan of the team folder: the files that can sync, those that cannot with the reason, and the
 * content of the files the scan was asked to keep (read and hashed once, then sent).
 */
record LocalSnapshot(
    Map<String, LocalFile> files,
    Map<String, SyncState.Skip> skipped,
    Map<String, String> contents) {

  LocalSnapshot {
    files = Collections.unmodifiableMap(new TreeMap<>(files));
    skipped = Collections.unmodifiableMap(new TreeMap<>(skipped));
    contents = Map.copyOf(contents);
  }

  LocalSnapshot(Map<String, LocalFile> files, Map<String, SyncState.Skip> skipped) {
    this(files, skipped, Map.of());
  }

  String checksumOf(String key) {
    LocalFile file = files.get(key);
    return file == null ? null : file.checksum();
  }

  /** The content this scan read for the key, when it was asked to keep it. */
  Optional<String> content(String key) {
    return Optional.ofNullable(contents.get(key));
  }
}
