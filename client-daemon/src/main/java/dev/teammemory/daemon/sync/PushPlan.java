package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one scan asks of the server, decided without talking to it (see {@link PushPlanner}).
 *
 * @param changed keys edited here since the last agreement, to read, check and send
 * @param skips files that do not sync, and why (the scan's verdicts and earlier refusals)
 * @param missing synced keys whose file is gone and whose server copy is still the one we synced
 * @param deletes missing keys due to be deleted on the server, with the checksum they must still
 *     have there
 * @param hold why every delete waits for {@code tmem team confirm-deletes}, if they do
 */
record PushPlan(
    List<String> changed,
    Map<String, SyncState.Skip> skips,
    Set<String> missing,
    List<Delete> deletes,
    Optional<String> hold) {

  PushPlan {
    changed = List.copyOf(changed);
    skips = Collections.unmodifiableMap(new TreeMap<>(skips));
    missing = Collections.unmodifiableSet(new TreeSet<>(missing));
    deletes = List.copyOf(deletes);
    requireNonNull(hold, "hold is null");
  }

  /** A delete to send: the key, and the checksum the server must still hold for it. */
  record Delete(String key, String expectedChecksum) {
    Delete {
      requireNonNull(key, "key is null");
      requireNonNull(expectedChecksum, "expectedChecksum is null");
    }
  }
}
