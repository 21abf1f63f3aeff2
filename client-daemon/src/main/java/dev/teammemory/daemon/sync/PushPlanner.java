package dev.teammemory.daemon.sync;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides what a push sends from one scan and the ledger, and nothing else: no file reads, no
 * requests, no writes to the ledger. The pusher then reads, checks and sends what it says.
 *
 * <p>A delete never destroys a teammate's work: only a key this daemon synced, whose server copy is
 * still the one it synced, and that two scans at least {@code deleteDelay} apart found missing, is
 * deleted. When the folder is gone or empty, or when more than a tenth (and at least {@value
 * #MASS_DELETE_MIN}) of the synced files vanish together, every delete waits for the user.
 */
final class PushPlanner {

  /** Fewer vanished files than this never count as a mass delete. */
  static final int MASS_DELETE_MIN = 5;

  private PushPlanner() {}

  static PushPlan plan(
      LocalSnapshot snapshot,
      boolean folderExists,
      SyncLedger ledger,
      Instant now,
      Duration deleteDelay) {
    List<String> changed = new ArrayList<>();
    Map<String, SyncState.Skip> skips = new TreeMap<>(snapshot.skipped());
    changedFiles(snapshot, ledger, changed, skips);

    Set<String> missing = new TreeSet<>();
    for (Map.Entry<String, String> synced : ledger.syncedChecksums().entrySet()) {
      String key = synced.getKey();
      boolean present = snapshot.files().containsKey(key) || snapshot.skipped().containsKey(key);
      boolean serverStillOurs = ledger.serverChecksum(key).orElse("").equals(synced.getValue());
      if (!present && serverStillOurs) {
        missing.add(key);
      }
    }
    Optional<String> hold = holdReason(snapshot, folderExists, missing, ledger);
    List<PushPlan.Delete> deletes = new ArrayList<>();
    if (hold.isEmpty() || ledger.holdReleasedFor(missing)) {
      for (String key : missing) {
        Instant first = ledger.missingSince(key).orElse(now);
        if (!first.plus(deleteDelay).isAfter(now)) {
          deletes.add(new PushPlan.Delete(key, ledger.syncedChecksum(key).orElseThrow()));
        }
      }
    }
    return new PushPlan(changed, skips, missing, deletes, hold);
  }

  /**
   * What a push of only the files the watcher named sends: their changes and skips. A look at some
   * files never finds one missing, so it plans no delete and no hold (only a full scan does).
   */
  static PushPlan planFiles(LocalSnapshot look, SyncLedger ledger) {
    List<String> changed = new ArrayList<>();
    Map<String, SyncState.Skip> skips = new TreeMap<>(look.skipped());
    changedFiles(look, ledger, changed, skips);
    return new PushPlan(changed, skips, Set.of(), List.of(), Optional.empty());
  }

  /** The files edited here since the last agreement, minus the content the server refused. */
  private static void changedFiles(
      LocalSnapshot snapshot,
      SyncLedger ledger,
      List<String> changed,
      Map<String, SyncState.Skip> skips) {
    for (LocalFile file : snapshot.files().values()) {
      String key = file.key();
      if (!ledger.changedHere(key, file.checksum())) {
        continue;
      }
      Optional<SyncState.Skip> earlier = ledger.skip(key);
      if (earlier.isPresent()
          && file.checksum().equals(earlier.get().checksum())
          && earlier.get().reason() != SkipReason.OVER_CAP) {
        // The server already refused exactly this content; an edit gets a new verdict.
        skips.put(key, earlier.get());
        continue;
      }
      changed.add(key);
    }
  }

  /** Whether {@code vanished} of {@code synced} files going at once looks like a mass delete. */
  static boolean holdsDeletes(int vanished, int synced) {
    return vanished >= MASS_DELETE_MIN && vanished * 10 > synced;
  }

  private static Optional<String> holdReason(
      LocalSnapshot snapshot, boolean folderExists, Set<String> missing, SyncLedger ledger) {
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    if (!folderExists) {
      return Optional.of("the team folder is missing");
    }
    if (snapshot.files().isEmpty() && snapshot.skipped().isEmpty()) {
      return Optional.of("the team folder is empty");
    }
    int synced = ledger.syncedChecksums().size();
    if (holdsDeletes(missing.size(), synced)) {
      return Optional.of(
          "%d of %d synced files vanished together".formatted(missing.size(), synced));
    }
    return Optional.empty();
  }
}
