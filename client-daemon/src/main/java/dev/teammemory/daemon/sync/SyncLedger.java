package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The engine's working copy of {@link SyncState}: what this daemon knows of the server and of the
 * last agreement per key. Only the project's sync thread touches it; every change goes through a
 * method named for what happened, and is saved as a new immutable {@link SyncState}.
 */
final class SyncLedger {

  /** Conflicts stay listed in {@code tmem status} this long. */
  static final Duration CONFLICT_RETENTION = Duration.ofDays(7);

  private final Clock clock;
  private final String serverUrl;
  private final String repo;
  private final String teamDir;
  private String repositoryChecksum;
  private final Map<String, String> server;
  private final Map<String, String> synced;
  private int maxEntries;
  private final TreeSet<String> pending;
  private final Map<String, SyncState.Skip> skipped;
  private final Map<String, SyncState.ConflictRecord> conflicts;
  private final Map<String, SyncState.KeptDeletion> keptDeletions;
  private final Map<String, String> refused;
  private final Map<String, Instant> missingSince;
  private SyncState.DeleteHold deleteHold;
  private Instant lastPullAt;
  private Instant lastPushAt;
  private String lastError;
  private Instant lastErrorAt;
  private String blockedReason;
  private String storePath;
  private long version;
  private final Map<String, String> memoryIds = new TreeMap<>();
  private String serverForgot;

  /**
   * The version this daemon had seen of the store it synced before the store changed (0 when it did
   * not change): the evidence a whole read of the new store is weighed against.
   */
  private long versionBeforeStoreChange;

  /** Set while the pull after a "server forgot" reconciles from the folder (not persisted). */
  private boolean reconciling;

  /**
   * Set with {@link #reconciling} when the repository went back to an older version (a restored
   * backup): what the server holds then predates this daemon's last sync (not persisted).
   */
  private boolean wentBack;

  /**
   * The version a change feed reset named below this daemon's version (-1 for none): the evidence
   * that the repository went back, weighed with the whole read that follows (not persisted).
   */
  private long feedWentBackTo = -1;

  /**
   * Set when the change feed named a repository that cannot have grown from what this daemon
   * synced: its checksum differs from what this daemon knows plus the keys the feed named, asked
   * twice (a backup restored and written over since, past this daemon's version; not persisted).
   */
  private String divergedAt;

  /**
   * Keys whose synced content this daemon sent itself, not pulled (not persisted): after a restore
   * its copy of those is the author's, as new as any teammate's.
   */
  private final Set<String> authored = new TreeSet<>();

  /** Keys sent again after the server forgot, with the checksum last synced (not persisted). */
  private final Map<String, String> resent = new TreeMap<>();

  /** Set when a push learned that the server changed keys we do not have yet (not persisted). */
  private boolean pullWanted;

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
    // A refusal the server gave a file's content in an earlier run (the skips with a checksum) is
    // asked again once: the server's limits or this tmem may have changed since (an upgrade now
    // sends by team_memory what the store API refused). A credential the server found is the
    // exception: that content is never sent again until the file changes.
    skipped
        .values()
        .removeIf(skip -> skip.checksum() != null && skip.reason() != SkipReason.SECRET);
    conflicts = new LinkedHashMap<>();
    state.conflicts().forEach(conflict -> conflicts.put(conflict.key(), conflict));
    keptDeletions = new TreeMap<>(state.keptDeletions());
    refused = new TreeMap<>(state.refusedKeys());
    missingSince = new TreeMap<>();
    state.missingSince().forEach((key, at) -> missingSince.put(key, Instant.parse(at)));
    deleteHold = state.deleteHold();
    lastPullAt = instant(state.lastPullAt());
    lastPushAt = instant(state.lastPushAt());
    lastError = state.lastError();
    lastErrorAt = instant(state.lastErrorAt());
    blockedReason = state.blockedReason();
    serverForgot = state.serverForgot();
    state
        .memoryStore()
        .ifPresent(
            store -> {
              storePath = store.path();
              version = store.version();
              memoryIds.putAll(store.memoryIds());
            });
  }

  // ---- reading ------------------------------------------------------------------------------

  String repo() {
    return repo;
  }

  Instant now() {
    return clock.instant();
  }

  String nowText() {
    return Timestamps.format(clock.instant());
  }

  String repositoryChecksum() {
    return repositoryChecksum;
  }

  Optional<String> serverChecksum(String key) {
    return Optional.ofNullable(server.get(key));
  }

  Optional<String> syncedChecksum(String key) {
    return Optional.ofNullable(synced.get(key));
  }

  /** The keys this daemon and the server last agreed on, with that checksum. */
  Map<String, String> syncedChecksums() {
    return Collections.unmodifiableMap(synced);
  }

  boolean serverHas(String key) {
    return server.containsKey(key);
  }

  int serverEntryCount() {
    return server.size();
  }

  int maxEntries() {
    return maxEntries;
  }

  Optional<SyncState.Skip> skip(String key) {
    return Optional.ofNullable(skipped.get(key));
  }

  Optional<SyncState.KeptDeletion> keptDeletion(String key) {
    return Optional.ofNullable(keptDeletions.get(key));
  }

  Optional<String> refusal(String key) {
    return Optional.ofNullable(refused.get(key));
  }

  int pendingCount() {
    return pending.size();
  }

  Optional<Instant> missingSince(String key) {
    return Optional.ofNullable(missingSince.get(key));
  }

  Optional<SyncState.DeleteHold> deleteHold() {
    return Optional.ofNullable(deleteHold);
  }

  Optional<String> blockedReason() {
    return Optional.ofNullable(blockedReason);
  }

  Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }

  boolean pullWanted() {
    return pullWanted;
  }

  /**
   * A local change: differs from what the server has and from what we last agreed on, and is not
   * the copy we kept of a key deleted on the server.
   */
  boolean changedHere(String key, String checksum) {
    if (checksum.equals(server.get(key)) || checksum.equals(synced.get(key))) {
      return false;
    }
    SyncState.KeptDeletion kept = keptDeletions.get(key);
    return kept == null || !kept.localChecksum().equals(checksum);
  }

  // ---- what a push learned ------------------------------------------------------------------

  /** This scan's verdicts: files that do not sync, and why. */
  void skipsAre(Map<String, SyncState.Skip> skips) {
    skipped.clear();
    skipped.putAll(skips);
  }

  /** The verdicts of a look at some files: theirs replace what was known of those files alone. */
  void skipsOf(Set<String> keys, Map<String, SyncState.Skip> skips) {
    skipped.keySet().removeAll(keys);
    skipped.putAll(skips);
  }

  void skipped(String key, SyncState.Skip skip) {
    skipped.put(key, skip);
    pending.remove(key);
  }

  void pendingAre(Collection<String> keys) {
    pending.clear();
    pending.addAll(keys);
  }

  /** What waits to be sent among some files: the rest of what waits stays as it was. */
  void pendingOf(Set<String> keys, Collection<String> sending) {
    pending.removeAll(keys);
    pending.addAll(sending);
  }

  /** The server stored {@code sent} for the key (it answered with {@code stored}). */
  void acknowledged(String key, String sent, String stored) {
    server.put(key, stored);
    synced.put(key, sent);
    authored.add(key);
    keptDeletions.remove(key);
    resent.remove(key);
    pending.remove(key);
    missingSince.remove(key);
  }

  /** An acknowledged repository-wide write: the next {@code If-Match} is its checksum. */
  void repositoryIs(String checksum) {
    repositoryChecksum = checksum;
    blockedReason = null;
  }

  void pushed() {
    lastPushAt = now();
  }

  void learnedCap(int maxEntries) {
    this.maxEntries = maxEntries;
  }

  /** The local file and the server hold the same content. */
  void agreed(String key, String checksum) {
    if (!checksum.equals(synced.get(key))) {
      authored.remove(key); // another content, from the server
    }
    synced.put(key, checksum);
    pending.remove(key);
    missingSince.remove(key);
  }

  /** What a probe or a full read says the server holds, whole. */
  void serverHolds(Map<String, String> checksums, String repositoryChecksum) {
    server.clear();
    server.putAll(checksums);
    this.repositoryChecksum = repositoryChecksum;
  }

  void wantPull() {
    pullWanted = true;
  }

  void pullDone() {
    pullWanted = false;
  }

  // ---- deletes ------------------------------------------------------------------------------

  /** A synced file is not in the folder; remembers when that was first seen. */
  Instant missing(String key) {
    return missingSince.computeIfAbsent(key, ignored -> now());
  }

  /** The key is back, or is no longer ours to delete. */
  void notMissing(String key) {
    missingSince.remove(key);
  }

  /** Forgets every missing key that is not in {@code stillMissing}. */
  void stillMissing(Set<String> keys) {
    missingSince.keySet().retainAll(keys);
    if (missingSince.isEmpty()) {
      deleteHold = null;
    }
  }

  /** The server deleted the key at our request (or it was already gone). */
  void deleted(String key) {
    server.remove(key);
    synced.remove(key);
    memoryIds.remove(key);
    missingSince.remove(key);
    pending.remove(key);
    if (missingSince.isEmpty()) {
      deleteHold = null;
    }
  }

  void hold(String reason, List<String> keys) {
    if (deleteHold == null || deleteHold.released()) {
      deleteHold = new SyncState.DeleteHold(reason, keys, nowText(), false);
    } else {
      deleteHold = new SyncState.DeleteHold(reason, keys, deleteHold.since(), false);
    }
  }

  /** {@code tmem team confirm-deletes}: the held deletes may go. */
  void releaseHold() {
    if (deleteHold != null) {
      deleteHold =
          new SyncState.DeleteHold(
              deleteHold.reason(), deleteHold.keys(), deleteHold.since(), true);
    }
  }

  boolean holdReleased() {
    return deleteHold != null && deleteHold.released();
  }

  /**
   * Whether the user confirmed deleting every one of {@code missing}: a released hold covers the
   * keys it held when it was confirmed, not files that vanished after.
   */
  boolean holdReleasedFor(Set<String> missing) {
    return holdReleased() && deleteHold.keys().containsAll(missing);
  }

  void holdOver() {
    deleteHold = null;
  }

  // ---- what a pull learned ------------------------------------------------------------------

  /** Forgets the agreed checksum of a key the server deleted; returns it. */
  Optional<String> forgetSynced(String key) {
    return Optional.ofNullable(synced.remove(key));
  }

  void refusalsCleared() {
    refused.clear();
  }

  void refused(String key, String why) {
    refused.put(key, why);
  }

  void keptDeletion(String key, SyncState.KeptDeletion kept) {
    keptDeletions.put(key, kept);
  }

  void keptDeletionOver(String key) {
    keptDeletions.remove(key);
  }

  /** Whether a pull has ever gone through for this folder (so the ledger knows the server). */
  boolean hasPulled() {
    return lastPullAt != null;
  }

  void pulled() {
    lastPullAt = now();
  }

  /**
   * Where the repository's memory store is, or empty when the server has none: files then sync
   * through {@code team_memory}. A different store forgets the memory ids of the old one.
   */
  void storeIs(Optional<String> path) {
    if (!path.equals(Optional.ofNullable(storePath))) {
      if (storePath != null && version > 0) {
        versionBeforeStoreChange = version;
      }
      memoryIds.clear();
      version = 0;
    }
    storePath = path.orElse(null);
  }

  /** The store's id while files sync one by one. */
  Optional<String> storeId() {
    return Optional.ofNullable(storePath).map(path -> path.substring(path.lastIndexOf('/') + 1));
  }

  Optional<String> memoryId(String key) {
    return Optional.ofNullable(memoryIds.get(key));
  }

  void memoryIs(String key, String id) {
    memoryIds.put(key, id);
  }

  /** Every memory id at once, from a listing of the whole store. */
  void memoryIdsAre(Map<String, String> ids) {
    memoryIds.clear();
    memoryIds.putAll(ids);
  }

  /** The repository version the ledger has seen: the next {@code after_version}. */
  long version() {
    return version;
  }

  /** The repository reached {@code version} with {@code checksum} and the ledger saw all of it. */
  void versionIs(long version, String checksum) {
    this.version = version;
    this.repositoryChecksum = checksum;
  }

  /** A single key's server checksum, from the change feed or a per-file write. */
  void serverHas(String key, String checksum) {
    server.put(key, checksum);
  }

  /**
   * The server's copy of the key is known to differ from the one here but is not applied yet: the
   * next pull reads it instead of taking it for one already applied.
   */
  void serverCopyUnread(String key) {
    server.remove(key);
  }

  /** The key is gone from the server. */
  void serverLacks(String key) {
    server.remove(key);
    memoryIds.remove(key);
  }

  // ---- when the server forgot ----------------------------------------------------------------

  /**
   * Weighs a whole read of the store at {@code version} with {@code checksum} against what this
   * daemon synced: a store that changed under the same repository is an upgrade when it holds the
   * same version and checksum, else the server forgot; the same store at a lower version than we
   * saw (a restored backup) forgot too. Returns whether it forgot.
   */
  boolean weighWholeRead(long version, String checksum) {
    long before = versionBeforeStoreChange;
    versionBeforeStoreChange = 0;
    long feedSaid = feedWentBackTo;
    feedWentBackTo = -1;
    String diverged = divergedAt;
    divergedAt = null;
    if (before > 0) {
      if (version == before && checksum.equals(repositoryChecksum)) {
        return false; // the same repository under a new store id: an upgrade, nothing lost
      }
      serverForgot(
          "its memory store changed, and the new one holds version "
              + version
              + " where this daemon had synced version "
              + before);
      return true;
    }
    // The feed's reset may name a lower version than this read: a teammate's daemon may have put
    // its files back in between. Either is the server's word that the version went back.
    long lowest = feedSaid >= 0 ? Math.min(version, feedSaid) : version;
    if (this.version > 0 && lowest < this.version) {
      wentBack = true;
      serverForgot(
          "the repository went back from version "
              + this.version
              + " to "
              + lowest
              + " (a restored backup or a new install)");
      return true;
    }
    if (diverged != null) {
      // What the server holds was written over since the restore: its copies are as new as the
      // teammates' daemons made them, so the usual rules weigh each file; only no absence counts
      // as a delete.
      serverForgot(diverged);
      return true;
    }
    return false;
  }

  /**
   * The change feed answered a reset naming {@code serverVersion}: below this daemon's version, the
   * repository went back (a restored backup, a new install). The whole read that follows is weighed
   * with it ({@link #weighWholeRead}).
   */
  void feedReset(long serverVersion) {
    if (version > 0 && serverVersion < version) {
      feedWentBackTo = feedWentBackTo < 0 ? serverVersion : Math.min(feedWentBackTo, serverVersion);
    }
  }

  /**
   * The change feed named version {@code serverVersion} of a repository that cannot have grown from
   * what this daemon synced at its version: the whole read that follows reconciles.
   */
  void historyDiverged(long serverVersion) {
    divergedAt =
        "the repository at version "
            + serverVersion
            + " does not hold what this daemon synced at version "
            + version
            + " (a restored backup written over since)";
  }

  /** What this daemon knows the server holds, key to checksum. */
  Map<String, String> serverChecksums() {
    return Collections.unmodifiableMap(server);
  }

  /**
   * The server's evidence says it forgot the repository, wholly or in part: the next apply takes no
   * absence and no tombstone as a delete, and puts back what this folder holds. Said once.
   */
  void serverForgot(String why) {
    reconciling = true;
    serverForgot =
        "the server forgot "
            + repo
            + " ("
            + why
            + ") at "
            + nowText()
            + "; nothing was deleted here, and this folder's files were sent again";
  }

  /** Whether the pull now in progress reconciles after the server forgot. */
  boolean reconciling() {
    return reconciling;
  }

  void reconciled() {
    reconciling = false;
    wentBack = false;
  }

  /**
   * The server forgot a key this daemon had synced with {@code checksum}: it is sent again as a
   * create, remembering that it is unchanged here (see {@link #resentUnchanged}).
   */
  void resend(String key) {
    forgetSynced(key).ifPresent(base -> resent.put(key, base));
  }

  /**
   * Whether {@code checksum} of the key is what this daemon had synced before the server forgot.
   */
  boolean resentUnchanged(String key, String checksum) {
    return checksum.equals(resent.get(key));
  }

  /**
   * What this daemon had synced of a key it is sending again after the server forgot, until the
   * server acknowledges it: still the base a local edit is told by, though the key is no longer
   * synced with this server.
   */
  Optional<String> resentBase(String key) {
    return Optional.ofNullable(resent.get(key));
  }

  /** Whether the content synced for the key is one this daemon sent (since it started). */
  boolean authoredHere(String key) {
    return authored.contains(key);
  }

  /** Whether the server forgot by going back to an older version (a restored backup). */
  boolean wentBack() {
    return wentBack;
  }

  Optional<String> serverForgotNote() {
    return Optional.ofNullable(serverForgot);
  }

  // ---- conflicts and failures ---------------------------------------------------------------

  void conflict(String key, String theirChecksum, String yourChecksum) {
    SyncState.ConflictRecord existing = conflicts.get(key);
    if (existing != null && existing.theirChecksum().equals(theirChecksum)) {
      return;
    }
    conflicts.remove(key);
    conflicts.put(
        key,
        new SyncState.ConflictRecord(key, theirChecksum, yourChecksum, 0, null, nowText(), null));
  }

  /** The server's version replaced a local file that never synced; the local one was saved. */
  void replaced(String key, String theirChecksum, String yourChecksum, String savedCopy) {
    conflicts.remove(key);
    conflicts.put(
        key,
        new SyncState.ConflictRecord(
            key, theirChecksum, yourChecksum, 0, null, nowText(), savedCopy));
  }

  List<SyncState.ConflictRecord> conflicts() {
    return List.copyOf(conflicts.values());
  }

  /** The teammate's side of a conflict was found in the server's history. */
  void theirVersionFound(String key, long version, String author) {
    SyncState.ConflictRecord conflict = conflicts.get(key);
    if (conflict != null) {
      conflicts.put(
          key,
          new SyncState.ConflictRecord(
              key,
              conflict.theirChecksum(),
              conflict.yourChecksum(),
              version,
              author,
              conflict.detectedAt(),
              conflict.savedCopy()));
    }
  }

  void failed(String words) {
    lastError = words;
    lastErrorAt = now();
  }

  void block(String reason) {
    failed(reason);
    blockedReason = reason;
  }

  void unblock() {
    blockedReason = null;
  }

  SyncState toState() {
    Instant oldest = clock.instant().minus(CONFLICT_RETENTION);
    List<SyncState.ConflictRecord> recent = new ArrayList<>();
    for (SyncState.ConflictRecord conflict : conflicts.values()) {
      if (!Instant.parse(conflict.detectedAt()).isBefore(oldest)) {
        recent.add(conflict);
      }
    }
    Map<String, String> missing = new TreeMap<>();
    missingSince.forEach((key, at) -> missing.put(key, Timestamps.format(at)));
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
        text(lastPullAt),
        text(lastPushAt),
        lastError,
        text(lastErrorAt),
        blockedReason,
        missing,
        deleteHold,
        storePath == null ? null : new SyncState.StoreSync(storePath, version, memoryIds),
        serverForgot);
  }

  private static Instant instant(String text) {
    return text == null ? null : Instant.parse(text);
  }

  private static String text(Instant instant) {
    return instant == null ? null : Timestamps.format(instant);
  }
}
