package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The engine's working copy of {@link SyncState}. Only the project's sync thread touches it; every
 * change is saved as a new immutable {@link SyncState}.
 */
final class SyncLedger {

  /** Conflicts stay listed in {@code tmem status} this long. */
  static final Duration CONFLICT_RETENTION = Duration.ofDays(7);

  private final Clock clock;
  final String serverUrl;
  final String repo;
  final String teamDir;
  String repositoryChecksum;
  final Map<String, String> server;
  final Map<String, String> synced;
  int maxEntries;
  final TreeSet<String> pending;
  Map<String, SyncState.Skip> skipped;
  final Map<String, SyncState.ConflictRecord> conflicts;
  final Map<String, SyncState.KeptDeletion> keptDeletions;
  final Map<String, String> refused;
  String lastPullAt;
  String lastPushAt;
  String lastError;
  String lastErrorAt;
  String blockedReason;

  /** Set when a push learned that the server changed keys we do not have yet (not persisted). */
  boolean pullWanted;

  SyncLedger(SyncState state, Clock clock) {
    this.clock = clock;
    serverUrl = state.serverUrl();
    repo = state.repo();
    teamDir = state.teamDir();
    repositoryChecksum = state.repositoryChecksum();
    server = new HashMap<>(state.serverChecksums());
    synced = new HashMap<>(state.syncedChecksums());
    maxEntries = state.maxEntries();
    pending = new TreeSet<>(state.pendingKeys());
    skipped = new TreeMap<>(state.skipped());
    conflicts = new LinkedHashMap<>();
    state.conflicts().forEach(conflict -> conflicts.put(conflict.key(), conflict));
    keptDeletions = new TreeMap<>(state.keptDeletions());
    refused = new TreeMap<>(state.refusedKeys());
    lastPullAt = state.lastPullAt();
    lastPushAt = state.lastPushAt();
    lastError = state.lastError();
    lastErrorAt = state.lastErrorAt();
    blockedReason = state.blockedReason();
  }

  String now() {
    return Timestamps.format(clock.instant());
  }

  void failed(String words) {
    lastError = words;
    lastErrorAt = now();
  }

  void conflict(String key, String theirChecksum, String yourChecksum) {
    SyncState.ConflictRecord existing = conflicts.get(key);
    if (existing != null && existing.theirChecksum().equals(theirChecksum)) {
      return;
    }
    conflicts.remove(key);
    conflicts.put(
        key, new SyncState.ConflictRecord(key, theirChecksum, yourChecksum, 0, null, now(), null));
  }

  /** The server's version replaced a local file that never synced; the local one was saved. */
  void replaced(String key, String theirChecksum, String yourChecksum, String savedCopy) {
    conflicts.remove(key);
    conflicts.put(
        key,
        new SyncState.ConflictRecord(key, theirChecksum, yourChecksum, 0, null, now(), savedCopy));
  }

  SyncState toState() {
    Instant oldest = clock.instant().minus(CONFLICT_RETENTION);
    List<SyncState.ConflictRecord> recent = new ArrayList<>();
    for (SyncState.ConflictRecord conflict : conflicts.values()) {
      if (!Instant.parse(conflict.detectedAt()).isBefore(oldest)) {
        recent.add(conflict);
      }
    }
    return new SyncState(
        serverUrl,
        repo,
        teamDir,
        repositoryChecksum,
        server,
        synced,
        maxEntries,
        List.copyOf(pending),
        skipped,
        recent,
        keptDeletions,
        refused,
        lastPullAt,
        lastPushAt,
        lastError,
        lastErrorAt,
        blockedReason);
  }
}
