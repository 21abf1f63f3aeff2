package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.teammemory.protocol.Checksums;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the daemon remembers of one project between runs, persisted atomically after every pull and
 * push, and every 32 files acknowledged within one, so that a restart neither re-uploads everything
 * nor forgets a pending change.
 *
 * @param repositoryChecksum the server's repository checksum as last seen (the next {@code
 *     If-Match})
 * @param serverChecksums the last known server checksum of every key
 * @param syncedChecksums the checksum each key had when local and server last agreed: a local
 *     checksum that differs from it is a local edit; a server checksum that differs is a teammate's
 * @param maxEntries the server's entry cap learned from a 413, 0 while unknown
 * @param pendingKeys local changes not yet on the server, as of the last scan
 * @param skipped files that are not synced, and why
 * @param conflicts keys both sides changed, where the local version won
 * @param keptDeletions keys deleted on the server whose local copy was modified and so kept
 * @param refusedKeys keys from the server that were not written, and why
 * @param lastPullAt when the last pull succeeded (ISO-8601), or null
 * @param lastPushAt when the last push succeeded (ISO-8601), or null
 * @param lastError the last failure in words, or null after a success
 * @param lastErrorAt when {@code lastError} happened, or null
 * @param blockedReason set when pushing stopped until the user acts (401, 403, 404), or null
 * @param missingSince synced files missing from the folder, and when a scan first saw them missing
 *     (a delete goes out only when a second scan at least the delete delay later still misses it)
 * @param deleteHold set while deletes are held (the folder vanished or too many files went at
 *     once), or null
 * @param store the repository's memory store when the server serves the Memory Stores API (files
 *     then sync one by one), or null
 * @param serverForgot the last time the server's own evidence said it forgot the repository (a new
 *     install, a restored backup), in words, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SyncState(
    String serverUrl,
    String repo,
    String teamDir,
    String repositoryChecksum,
    Map<String, String> serverChecksums,
    Map<String, String> syncedChecksums,
    int maxEntries,
    List<String> pendingKeys,
    Map<String, Skip> skipped,
    List<ConflictRecord> conflicts,
    Map<String, KeptDeletion> keptDeletions,
    Map<String, String> refusedKeys,
    String lastPullAt,
    String lastPushAt,
    String lastError,
    String lastErrorAt,
    String blockedReason,
    Map<String, String> missingSince,
    DeleteHold deleteHold,
    StoreSync store,
    String serverForgot) {

  public SyncState {
    requireNonNull(serverUrl, "serverUrl is null");
    requireNonNull(repo, "repo is null");
    requireNonNull(teamDir, "teamDir is null");
    repositoryChecksum = repositoryChecksum == null ? Checksums.EMPTY : repositoryChecksum;
    serverChecksums = sorted(serverChecksums);
    syncedChecksums = sorted(syncedChecksums);
    if (maxEntries < 0) {
      throw new IllegalArgumentException("maxEntries is negative: " + maxEntries);
    }
    pendingKeys = pendingKeys == null ? List.of() : List.copyOf(pendingKeys);
    skipped = sorted(skipped);
    conflicts = conflicts == null ? List.of() : List.copyOf(conflicts);
    keptDeletions = sorted(keptDeletions);
    refusedKeys = sorted(refusedKeys);
    // A state written before per-file sync has neither: nothing missing, nothing held.
    missingSince = sorted(missingSince);
  }

  /** The state of a project that never synced. */
  public static SyncState initial(String serverUrl, String repo, String teamDir) {
    return new SyncState(
        serverUrl,
        repo,
        teamDir,
        Checksums.EMPTY,
        Map.of(),
        Map.of(),
        0,
        List.of(),
        Map.of(),
        List.of(),
        Map.of(),
        Map.of(),
        null,
        null,
        null,
        null,
        null,
        Map.of(),
        null,
        null,
        null);
  }

  public Optional<String> lastPull() {
    return Optional.ofNullable(lastPullAt);
  }

  public Optional<String> lastPush() {
    return Optional.ofNullable(lastPushAt);
  }

  public Optional<String> error() {
    return Optional.ofNullable(lastError);
  }

  public Optional<String> blocked() {
    return Optional.ofNullable(blockedReason);
  }

  public Optional<DeleteHold> heldDeletes() {
    return Optional.ofNullable(deleteHold);
  }

  public Optional<String> forgotten() {
    return Optional.ofNullable(serverForgot);
  }

  public Optional<StoreSync> memoryStore() {
    return Optional.ofNullable(store);
  }

  private static <V> Map<String, V> sorted(Map<String, V> map) {
    return map == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(map));
  }

  /**
   * A file that is not synced. {@code checksum} is the content the verdict applies to: a later edit
   * gets a new verdict. {@code detail} names rule ids or sizes, never content.
   */
  public record Skip(SkipReason reason, String detail, String checksum) {
    public Skip {
      requireNonNull(reason, "reason is null");
      requireNonNull(detail, "detail is null");
    }

    public String inWords() {
      return detail.isEmpty() ? reason.words() : reason.words() + " (" + detail + ")";
    }
  }

  /**
   * A key changed on both sides since the last sync. Either the local version was pushed and the
   * teammate's is in the server's history as {@code theirVersion} (0 when not found), or, for a
   * local file that never synced ({@code savedCopy} set), the server's version was written and the
   * local one saved there first.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ConflictRecord(
      String key,
      String theirChecksum,
      String yourChecksum,
      long theirVersion,
      String theirAuthor,
      String detectedAt,
      String savedCopy) {
    public ConflictRecord {
      requireNonNull(key, "key is null");
      requireNonNull(theirChecksum, "theirChecksum is null");
      requireNonNull(yourChecksum, "yourChecksum is null");
      requireNonNull(detectedAt, "detectedAt is null");
    }
  }

  /** A key deleted on the server ({@code tmem team rm}) whose local copy was modified, so kept. */
  public record KeptDeletion(String deletedChecksum, String localChecksum, String at) {
    public KeptDeletion {
      requireNonNull(deletedChecksum, "deletedChecksum is null");
      requireNonNull(localChecksum, "localChecksum is null");
      requireNonNull(at, "at is null");
    }
  }

  /**
   * Deletes are held: {@code reason} says why in words, {@code keys} are the files that vanished;
   * {@code released} once the user ran {@code tmem team confirm-deletes}.
   */
  public record DeleteHold(String reason, List<String> keys, String since, boolean released) {
    public DeleteHold {
      requireNonNull(reason, "reason is null");
      requireNonNull(since, "since is null");
      keys = keys == null ? List.of() : List.copyOf(keys);
    }
  }

  /**
   * Per-file sync through the Memory Stores API: where the store is, the repository version the
   * ledger has seen (the next {@code after_version}), and the memory id of every key.
   */
  public record StoreSync(String path, long version, Map<String, String> memoryIds) {
    public StoreSync {
      requireNonNull(path, "path is null");
      if (version < 0) {
        throw new IllegalArgumentException("version is negative: " + version);
      }
      memoryIds = sorted(memoryIds);
    }

    /** The store id: the last segment of its path. */
    public String id() {
      return path.substring(path.lastIndexOf('/') + 1);
    }
  }
}
