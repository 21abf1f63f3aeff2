package dev.teammemory.daemon.sync;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** One scan of the team folder: the files that can sync, and those that cannot with the reason. */
record LocalSnapshot(Map<String, LocalFile> files, Map<String, SyncState.Skip> skipped) {

  LocalSnapshot {
    files = Collections.unmodifiableMap(new TreeMap<>(files));
    skipped = Collections.unmodifiableMap(new TreeMap<>(skipped));
  }

  String checksumOf(String key) {
    LocalFile file = files.get(key);
    return file == null ? null : file.checksum();
  }
}
