package dev.teammemory.daemon.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.logging.Logger;

/** The server's entry cap as the ledger learned it, applied to what a push is about to send. */
final class EntryCap {

  private static final Logger LOG = Logger.getLogger(EntryCap.class.getName());

  private EntryCap() {}

  /**
   * Keeps the new keys that fit under the learned cap (in key order) and marks the rest skipped.
   * Updates to keys the server already has always fit.
   */
  static void apply(SyncLedger ledger, Map<String, String> delta, Map<String, String> checksums) {
    if (ledger.maxEntries() <= 0) {
      return;
    }
    List<String> newKeys = new ArrayList<>(new TreeSet<>(delta.keySet()));
    newKeys.removeIf(ledger::serverHas);
    int room = Math.max(0, ledger.maxEntries() - ledger.serverEntryCount());
    for (int i = room; i < newKeys.size(); i++) {
      String key = newKeys.get(i);
      delta.remove(key);
      ledger.skipped(
          key,
          new SyncState.Skip(
              SkipReason.OVER_CAP,
              "the server holds at most %,d entries".formatted(ledger.maxEntries()),
              checksums.get(key)));
    }
    if (newKeys.size() > room) {
      LOG.warning(
          ledger.repo()
              + ": "
              + (newKeys.size() - room)
              + " new file(s) do not sync: the server holds at most "
              + ledger.maxEntries()
              + " entries (see tmem status)");
    }
  }
}
