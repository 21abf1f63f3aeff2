package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ETags;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.database.PostgresArrays;
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.secrets.SecretFinding;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.hibernate.Session;

/**
 * Each repository's entries on PostgreSQL. Every write is one transaction that first locks the
 * repository row ({@code SELECT … FOR UPDATE}), so writers to one repository serialise and each
 * sees the state the previous one committed; conditions ({@code If-Match}, limits, secrets) are
 * checked under that lock and a refused write rolls back whole. Every content a write produces is
 * also kept in {@code memory_entry_version}, and every committed write announces itself with {@code
 * NOTIFY} so that waiting change feeds on every replica wake up.
 */
@ApplicationScoped
public class EntryStore {

  /** The PostgreSQL channel every committed write notifies, with the repository's slug key. */
  public static final String CHANGES_CHANNEL = "team_memory_changed";

  private final EntityManager entityManager;
  private final RepositoryReader reader;
  private final LimitsConfig limits;
  private final HistoryRetention retention;
  private final MemoryConfig.History historyPolicy;
  private final ReviewQueue reviewQueue;

  @Inject
  EntryStore(
      EntityManager entityManager,
      RepositoryReader reader,
      LimitsConfig limits,
      HistoryRetention retention,
      MemoryConfig config,
      ReviewQueue reviewQueue) {
    this.entityManager = entityManager;
    this.reviewQueue = reviewQueue;
    this.reader = reader;
    this.limits = limits;
    this.retention = retention;
    this.historyPolicy = config.history();
  }

  // ---------------------------------------------------------------------------------- reads

  /** The caller's hashes view, unless {@code ifNoneMatch} names its checksum. */
  ReadOutcome hashes(AuthorizedRepository target, String ifNoneMatch) {
    return reader.hashes(target, ifNoneMatch);
  }

  /**
   * What a full GET answers without reading the contents: never written, or not modified since
   * {@code ifNoneMatch}; empty when the body must be read.
   */
  Optional<ReadOutcome> absentOrUnchanged(AuthorizedRepository target, String ifNoneMatch) {
    return reader.absentOrUnchanged(target, ifNoneMatch);
  }

  /**
   * The whole repository as the caller sees it, as a body to stream; a {@link ReadOutcome.Snapshot}
   * holds a database connection until it is closed.
   */
  ReadOutcome snapshot(AuthorizedRepository target) {
    return reader.snapshot(target);
  }

  /** The content bytes of the repository's live entries (0 when it has no row). */
  long contentBytes(RepositorySlug slug) {
    return reader.contentBytes(slug);
  }

  /**
   * The caller's hashes view of the repository; for a never-written one, the empty view (version 0,
   * the empty checksum), which is what a change feed compares against.
   */
  public HashesView hashes(AuthorizedRepository target) {
    return reader.hashesOrEmpty(target);
  }

  /**
   * The keys written after {@code afterVersion} once the repository's version is above it, as the
   * caller sees them, or a reset when it cannot be answered for; empty while nothing newer exists.
   */
  public Optional<VersionChanges> changesAfter(AuthorizedRepository target, long afterVersion) {
    return reader.changesAfter(target, afterVersion);
  }

  /** The id of the repository's memory store; empty when the repository has no row yet. */
  Optional<String> storeId(RepositorySlug slug) {
    return reader.storeId(slug);
  }

  /**
   * One page of the kept versions of a key, newest first, from below {@code from}'s version (the
   * newest when empty): at most {@code pageVersions} versions, and no more once their content
   * reaches the page byte limit (at least one). Sizes are read before contents, so a page never
   * loads more than it sends. Empty when the repository was never written. A caller who reads a
   * view of the repository ({@link CallerViews}) does not see the versions of others' changes that
   * wait for review or were rejected.
   */
  @Transactional
  Optional<EntryHistory> history(
      AuthorizedRepository target, String key, Optional<HistoryCursor> from) {
    RepositorySlug slug = target.slug();
    readConsistently();
    Optional<String> viewer =
        entityManager
            .unwrap(Session.class)
            .doReturningWork(connection -> CallerViews.viewer(connection, target));
    String sizesSql =
        "SELECT id, version, octet_length(content) FROM memory_entry_version"
            + " WHERE repository_id = ?1 AND entry_key = ?2 AND redacted_at IS NULL"
            + " AND version < ?3 ORDER BY version DESC LIMIT ?4";
    Repository repository = Repository.find("slugKey", slug.key()).firstResult();
    if (repository == null || repository.version == 0) {
      return Optional.empty(); // a store created but never written is a never-written repository
    }
    MemoryConfig.History bounds = historyPolicy;
    @SuppressWarnings("unchecked")
    List<Object[]> sizes =
        viewer
            .map(
                user ->
                    entityManager
                        .createNativeQuery(CallerViews.over(sizesSql, "?5"))
                        .setParameter(5, user))
            .orElseGet(() -> entityManager.createNativeQuery(sizesSql))
            .setParameter(1, repository.id)
            .setParameter(2, key)
            .setParameter(3, from.map(HistoryCursor::beforeVersion).orElse(Long.MAX_VALUE))
            .setParameter(4, bounds.pageVersions() + 1)
            .getResultList();
    List<Long> ids = new ArrayList<>();
    long bytes = 0;
    long lastVersion = 0;
    for (Object[] row : sizes) {
      long size = ((Number) row[2]).longValue();
      if (ids.size() == bounds.pageVersions()
          || (!ids.isEmpty() && bytes + size > limits.maxPageBytes())) {
        break;
      }
      ids.add(((Number) row[0]).longValue());
      lastVersion = ((Number) row[1]).longValue();
      bytes += size;
    }
    List<EntryHistory.Version> versions = new ArrayList<>();
    if (!ids.isEmpty()) {
      for (EntryVersion kept :
          EntryVersion.<EntryVersion>list("id in ?1 order by version desc", ids)) {
        versions.add(
            new EntryHistory.Version(
                kept.version,
                kept.checksum,
                kept.content,
                kept.author,
                Timestamps.format(kept.createdAt),
                kept.deleted));
        entityManager.detach(kept); // the page is the only copy of its contents in the heap
      }
    }
    String next = ids.size() < sizes.size() ? new HistoryCursor(lastVersion).wire() : null;
    return Optional.of(new EntryHistory(repository.slug, key, versions, next));
  }

  // --------------------------------------------------------------------------------- writes

  /**
   * Upsert-merges {@code entries} into the repository, in the protocol's order of checks: {@code
   * If-Match} against the locked state, then the limits after the merge, then the secrets found in
   * the body (scanned by the caller before the lock, so that the lock is held briefly).
   */
  @Transactional
  PutOutcome put(
      AuthorizedRepository target,
      Map<String, String> entries,
      Optional<String> ifMatch,
      List<SecretFinding> secrets) {
    RepositorySlug slug = target.slug();
    Optional<Repository> locked = lock(slug);
    if (locked.isEmpty() && !entries.isEmpty()) {
      createIfAbsent(slug);
      locked = lock(slug);
    }
    if (locked.isPresent() && locked.get().archivedAt != null) {
      return rollBack(new PutOutcome.Archived());
    }
    // A row at version 0 was created empty (by this transaction or as a store): never written.
    RepositoryState current =
        locked
            .filter(repository -> repository.version > 0)
            .map(RepositoryState::of)
            .map(state -> asSeenBy(target, state))
            .orElse(RepositoryState.neverWritten(slug.toString()));
    if (ifMatch.isPresent() && !preconditionHolds(ifMatch.get(), current)) {
      return rollBack(new PutOutcome.PreconditionFailed(current.checksum()));
    }
    if (entries.isEmpty()) {
      return new PutOutcome.Unchanged(current, Map.of());
    }
    Repository repository = locked.orElseThrow();

    Map<String, EntryState> states = new LinkedHashMap<>();
    int liveEntries = 0;
    long liveBytes = 0;
    for (EntryState state : statesOf(repository)) {
      states.put(state.entryKey(), state);
      if (!state.deleted()) {
        liveEntries++;
        liveBytes += state.sizeBytes();
      }
    }
    Map<String, String> putChecksums = new HashMap<>();
    Map<String, Integer> changedSizes = new HashMap<>();
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      String checksum = Checksums.ofContent(entry.getValue());
      putChecksums.put(entry.getKey(), checksum);
      EntryState previous = states.get(entry.getKey());
      boolean live = previous != null && !previous.deleted();
      if (live && previous.checksum().equals(checksum)) {
        continue;
      }
      int size = (int) UnicodeText.utf8Length(entry.getValue());
      changedSizes.put(entry.getKey(), size);
      liveEntries += live ? 0 : 1;
      liveBytes += size - (live ? previous.sizeBytes() : 0);
    }
    if (changedSizes.isEmpty()) {
      // Nothing to write, but a secret is refused all the same: the server scans every PUT.
      return secrets.isEmpty()
          ? new PutOutcome.Unchanged(current, putChecksums)
          : rollBack(new PutOutcome.SecretDetected(secrets));
    }
    if (liveEntries > limits.maxEntries()) {
      return rollBack(new PutOutcome.TooManyEntries(limits.maxEntries(), liveEntries));
    }
    if (liveBytes > limits.maxRepositoryBytes()) {
      return rollBack(new PutOutcome.RepositoryTooLarge(limits.maxRepositoryBytes(), liveBytes));
    }
    if (!secrets.isEmpty()) {
      return rollBack(new PutOutcome.SecretDetected(secrets));
    }

    long version = repository.version + 1;
    Instant now = now();
    Map<String, MemoryEntry> existing = new HashMap<>();
    List<String> existingKeys = changedSizes.keySet().stream().filter(states::containsKey).toList();
    if (!existingKeys.isEmpty()) {
      for (MemoryEntry entry :
          MemoryEntry.<MemoryEntry>list(
              "repositoryId = ?1 and entryKey in ?2", repository.id, existingKeys)) {
        existing.put(entry.entryKey, entry);
      }
    }
    Map<String, String> liveChecksums = new LinkedHashMap<>();
    states.forEach(
        (key, state) -> {
          if (!state.deleted()) {
            liveChecksums.put(key, state.checksum());
          }
        });
    changedSizes.forEach(
        (key, size) -> {
          MemoryEntry entry = existing.get(key);
          boolean created = entry == null;
          Operation operation;
          if (created) {
            entry = newEntry(repository, key, now);
            operation = Operation.CREATED;
          } else if (entry.deleted) {
            revive(entry, now);
            operation = Operation.CREATED;
          } else {
            operation = Operation.MODIFIED;
          }
          setContent(entry, entries.get(key), putChecksums.get(key), size);
          stamp(entry, version, now, target.caller().user());
          if (created) {
            entry.persist(); // after the fields: persist takes the row's state as it is now
          }
          EntryVersion.of(entry, operation).persist();
          liveChecksums.put(key, entry.checksum);
        });
    RepositoryState state =
        advance(target, repository, version, Checksums.ofRepository(liveChecksums), now);
    repository.entryCount = liveEntries;
    repository.totalBytes = liveBytes;
    retention.bound(repository.id, changedSizes.keySet());
    return new PutOutcome.Applied(asSeenBy(target, state), putChecksums);
  }

  /**
   * Turns a key into a tombstone: it leaves the entries and appears in {@code deletedKeys}. With
   * {@code expectedChecksum}, only while the key still has that content.
   */
  @Transactional
  DeleteOutcome delete(
      AuthorizedRepository target,
      String key,
      Optional<String> ifMatch,
      Optional<String> expectedChecksum) {
    Optional<Repository> locked = lock(target.slug()).filter(row -> row.version > 0);
    if (locked.isEmpty()) {
      return new DeleteOutcome.NoSuchRepository();
    }
    Repository repository = locked.get();
    if (repository.archivedAt != null) {
      return new DeleteOutcome.Archived();
    }
    Optional<RepositoryReader.View> view = viewOf(target, RepositoryState.of(repository));
    RepositoryState current = seenIn(view, RepositoryState.of(repository));
    if (ifMatch.isPresent() && !preconditionHolds(ifMatch.get(), current)) {
      return new DeleteOutcome.PreconditionFailed(current.checksum());
    }
    MemoryEntry entry = entry(repository, key).orElse(null);
    if (entry == null) {
      return new DeleteOutcome.NoSuchKey();
    }
    if (entry.deleted) {
      return new DeleteOutcome.AlreadyDeleted(current);
    }
    // The content the caller last saw of the key is their view's: a teammate's waiting change of
    // it is not a reason to refuse their delete (it becomes one more waiting change).
    String seen =
        view.map(viewed -> viewed.live().getOrDefault(key, entry.checksum)).orElse(entry.checksum);
    if (expectedChecksum.isPresent() && !expectedChecksum.get().equals(seen)) {
      return new DeleteOutcome.KeyChanged(seen);
    }
    long version = repository.version + 1;
    Instant now = now();
    tombstone(repository, entry, version, now, target.caller().user());
    retention.bound(repository.id, List.of(key));
    return new DeleteOutcome.Deleted(
        asSeenBy(
            target,
            advance(target, repository, version, checksumWithout(repository, key, null), now)));
  }

  /**
   * A reviewer's approval of the key's kept {@code version}: it becomes the version teammates see
   * (the approved-version pointer), and the key and the repository are stamped with a new version
   * (content and checksum unchanged) so that every change-feed form wakes. Empty when the
   * repository or the key is gone.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  Optional<RepositoryState> approve(AuthorizedRepository reviewer, String key, long version) {
    Optional<Repository> locked = lock(reviewer.slug());
    Optional<MemoryEntry> found = locked.flatMap(repository -> entry(repository, key));
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Repository repository = locked.get();
    MemoryEntry entry = found.get();
    long newVersion = repository.version + 1;
    Instant now = now();
    entry.version = newVersion;
    entityManager.flush();
    entityManager
        .createNativeQuery("UPDATE memory_entry SET approved_version = ?1 WHERE id = ?2")
        .setParameter(1, version)
        .setParameter(2, entry.id)
        .executeUpdate();
    return Optional.of(advance(repository, newVersion, repository.checksum, now));
  }

  /**
   * Review switched off: every key whose newest version is not the approved one (a change that
   * waited, or was never approved) is stamped with one new repository version (contents and
   * checksum unchanged), so that every change-feed form wakes teammates, whose views change to the
   * newest. Empty when nothing needed it, or the repository was never written.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  Optional<RepositoryState> publish(RepositorySlug slug) {
    Optional<Repository> locked = lock(slug).filter(row -> row.version > 0);
    if (locked.isEmpty()) {
      return Optional.empty();
    }
    Repository repository = locked.get();
    long newVersion = repository.version + 1;
    entityManager.flush();
    int stamped =
        entityManager
            .createNativeQuery(
                "UPDATE memory_entry SET version = ?1 WHERE repository_id = ?2"
                    + " AND approved_version IS DISTINCT FROM version")
            .setParameter(1, newVersion)
            .setParameter(2, repository.id)
            .executeUpdate();
    if (stamped == 0) {
      return Optional.empty();
    }
    return Optional.of(advance(repository, newVersion, repository.checksum, now()));
  }

  /**
   * Removes one kept version of a key: the way out when a secret slipped in. Our choice when that
   * version is the key's current content: the key returns to its previous kept version, in a new
   * repository version; when there is none, or the previous one is a tombstone, the key is deleted
   * instead, and its tombstone carries the purged content's checksum, so that clients still holding
   * that content delete their copy. Purging an older version, or the tombstone of a deleted key,
   * changes nothing but history: the repository keeps its version and checksum.
   */
  @Transactional
  PurgeOutcome purge(AuthorizedRepository target, String key, long version) {
    Optional<Repository> locked = lock(target.slug()).filter(row -> row.version > 0);
    if (locked.isEmpty()) {
      return new PurgeOutcome.NoSuchRepository();
    }
    Repository repository = locked.get();
    List<EntryVersion> kept =
        EntryVersion.list(
            "repositoryId = ?1 and entryKey = ?2 and redactedAt is null order by version desc",
            repository.id,
            key);
    EntryVersion purged =
        kept.stream().filter(row -> row.version == version).findFirst().orElse(null);
    if (purged == null) {
      return new PurgeOutcome.NoSuchVersion();
    }
    MemoryEntry entry = entry(repository, key).orElseThrow();
    boolean isCurrentContent = !entry.deleted && kept.get(0) == purged;
    purged.delete();
    if (!isCurrentContent) {
      return new PurgeOutcome.Purged(RepositoryState.of(repository), false);
    }
    Optional<EntryVersion> previous = kept.stream().skip(1).findFirst();
    long newVersion = repository.version + 1;
    Instant now = now();
    int oldSize = entry.sizeBytes;
    entry.version = newVersion;
    entry.updatedAt = now;
    entry.updatedBy = target.caller().user();
    if (previous.isPresent() && !previous.get().deleted) {
      entry.content = previous.get().content;
      entry.checksum = previous.get().checksum;
      entry.sizeBytes = (int) UnicodeText.utf8Length(entry.content);
      repository.totalBytes += entry.sizeBytes - oldSize;
    } else {
      entry.deleted = true;
      entry.content = "";
      entry.sizeBytes = 0;
      repository.entryCount -= 1;
      repository.totalBytes -= oldSize;
      if (previous.isEmpty()) {
        EntryVersion.of(entry, Operation.DELETED).persist(); // history shows how the key ended
      }
    }
    String checksum =
        entry.deleted
            ? checksumWithout(repository, key, null)
            : checksumWithout(repository, key, entry.checksum);
    return new PurgeOutcome.Purged(advance(repository, newVersion, checksum, now), true);
  }

  /**
   * {@link #put} of one key, only while the key is still at {@code expectedVersion} (the repository
   * version that last wrote it, 0 for a key never written): the console's precondition, so that a
   * teammate's change between reading a page and saving it is refused, not overwritten. A changed
   * key comes back as {@link PutOutcome.PreconditionFailed} with the repository's checksum.
   */
  @Transactional
  PutOutcome putKeyAtVersion(
      AuthorizedRepository target,
      String key,
      String content,
      long expectedVersion,
      List<SecretFinding> secrets) {
    Optional<Repository> locked = lock(target.slug());
    long current =
        locked.flatMap(repository -> entry(repository, key)).map(entry -> entry.version).orElse(0L);
    if (current != expectedVersion) {
      return rollBack(
          new PutOutcome.PreconditionFailed(
              locked.map(repository -> repository.checksum).orElse(Checksums.EMPTY)));
    }
    return put(target, Map.of(key, content), Optional.empty(), secrets);
  }

  /** {@link #delete} of a key only while it is still at {@code expectedVersion}. */
  @Transactional
  DeleteOutcome deleteKeyAtVersion(AuthorizedRepository target, String key, long expectedVersion) {
    Optional<Repository> locked = lock(target.slug());
    Optional<MemoryEntry> entry = locked.flatMap(repository -> entry(repository, key));
    if (entry.isPresent() && entry.get().version != expectedVersion) {
      return new DeleteOutcome.KeyChanged(entry.get().checksum);
    }
    return delete(target, key, Optional.empty(), Optional.empty());
  }

  // ------------------------------------------------------------------- Memory Stores API

  /**
   * The store of the repository: an existing one as it is (whatever {@code attributes} say), else a
   * new one with these attributes, which for {@code team_memory} is a never-written repository.
   */
  @Transactional
  public StoreOutcome createStore(AuthorizedRepository target, StoreAttributes attributes) {
    RepositorySlug slug = target.slug();
    @SuppressWarnings("unchecked")
    List<String> created =
        entityManager
            .createNativeQuery(
                "INSERT INTO repository (slug, slug_key, version, checksum, last_modified,"
                    + " store_id, store_name, store_description, store_metadata)"
                    + " VALUES (?1, ?2, 0, ?3, ?4, ?5, ?6, ?7, ?8)"
                    + " ON CONFLICT (slug_key) DO NOTHING RETURNING store_id")
            .setParameter(1, slug.toString())
            .setParameter(2, slug.key())
            .setParameter(3, Checksums.EMPTY)
            .setParameter(4, Instant.EPOCH)
            .setParameter(5, Ids.newStore())
            .setParameter(6, attributes.name().orElse(null))
            .setParameter(7, attributes.description())
            .setParameter(8, attributes.metadataJson())
            .getResultList();
    if (!created.isEmpty()) {
      return new StoreOutcome.Done(created.get(0), true);
    }
    Repository existing = Repository.find("slugKey", slug.key()).firstResult();
    return new StoreOutcome.Done(existing.storeId, false);
  }

  /**
   * Sets the store's description and metadata to what {@code change} makes of them, applied to the
   * locked row (so concurrent updates compose); its name and binding never change. An exception
   * from {@code change} leaves the store as it was.
   */
  @Transactional
  public StoreOutcome updateStore(
      AuthorizedRepository target, String storeId, UnaryOperator<StoreAttributes> change) {
    Optional<Repository> locked = lockStore(target, storeId);
    if (locked.isEmpty()) {
      return new StoreOutcome.NotFound();
    }
    Repository repository = locked.get();
    if (repository.archivedAt != null) {
      return new StoreOutcome.Archived();
    }
    StoreAttributes changed =
        change.apply(
            new StoreAttributes(
                Optional.ofNullable(repository.storeName),
                repository.storeDescription,
                repository.storeMetadata));
    if (!repository.storeDescription.equals(changed.description())
        || !repository.storeMetadata.equals(changed.metadataJson())) {
      repository.storeDescription = changed.description();
      repository.storeMetadata = changed.metadataJson();
      repository.storeUpdatedAt = now();
    }
    return new StoreOutcome.Done(storeId, false);
  }

  /**
   * Archives the store: from now on it takes no writes through either API, and its memories stay
   * readable. Archiving an archived store changes nothing.
   */
  @Transactional
  public StoreOutcome archiveStore(AuthorizedRepository target, String storeId) {
    Optional<Repository> locked = lockStore(target, storeId);
    if (locked.isEmpty()) {
      return new StoreOutcome.NotFound();
    }
    Repository repository = locked.get();
    if (repository.archivedAt == null) {
      Instant now = now();
      repository.archivedAt = now;
      repository.storeUpdatedAt = now;
    }
    return new StoreOutcome.Done(storeId, false);
  }

  /**
   * Deletes the store: every live memory becomes a tombstone in one new repository version (history
   * is kept, and {@code team_memory} clients delete their copies), and the repository gets a fresh
   * store, so that the deleted id is gone for good.
   */
  @Transactional
  public StoreOutcome deleteStore(AuthorizedRepository target, String storeId) {
    Optional<Repository> locked = lockStore(target, storeId);
    if (locked.isEmpty()) {
      return new StoreOutcome.NotFound();
    }
    Repository repository = locked.get();
    List<MemoryEntry> live =
        MemoryEntry.list("repositoryId = ?1 and deleted = false", repository.id);
    if (!live.isEmpty()) {
      long version = repository.version + 1;
      Instant now = now();
      for (MemoryEntry entry : live) {
        tombstone(repository, entry, version, now, target.caller().user());
      }
      advance(target, repository, version, Checksums.EMPTY, now);
    }
    repository.storeId = Ids.newStore();
    repository.storeName = null;
    repository.storeDescription = "";
    repository.storeMetadata = "{}";
    repository.storeUpdatedAt = null;
    repository.archivedAt = null;
    return new StoreOutcome.Done(storeId, false);
  }

  /**
   * Creates a memory at {@code key} (reviving the key's tombstone under a new memory id), checked
   * under the repository lock in this order: the store exists and is not archived, no memory's path
   * equals, contains or is contained by this one, the limits, the secrets.
   */
  @Transactional
  public MemoryOutcome createMemory(
      AuthorizedRepository target,
      String storeId,
      String key,
      String content,
      List<SecretFinding> secrets) {
    Optional<Repository> locked = lockStore(target, storeId);
    if (locked.isEmpty()) {
      return new MemoryOutcome.NotFound();
    }
    Repository repository = locked.get();
    if (repository.archivedAt != null) {
      return new MemoryOutcome.Archived();
    }
    Optional<MemoryOutcome.PathConflict> conflict = pathConflict(repository, key, null);
    if (conflict.isPresent()) {
      return conflict.get();
    }
    int size = (int) UnicodeText.utf8Length(content);
    Optional<MemoryOutcome> overLimit =
        overLimits(repository.entryCount + 1, repository.totalBytes + size);
    if (overLimit.isPresent()) {
      return overLimit.get();
    }
    if (!secrets.isEmpty()) {
      return new MemoryOutcome.SecretDetected(secrets);
    }
    long version = repository.version + 1;
    Instant now = now();
    MemoryEntry entry = entry(repository, key).orElse(null);
    boolean created = entry == null;
    if (created) {
      entry = newEntry(repository, key, now);
    } else {
      revive(entry, now);
    }
    setContent(entry, content, Checksums.ofContent(content), size);
    stamp(entry, version, now, target.caller().user());
    if (created) {
      entry.persist();
    }
    EntryVersion kept = EntryVersion.of(entry, Operation.CREATED);
    kept.persist();
    retention.bound(repository.id, List.of(entry.entryKey));
    repository.entryCount += 1;
    repository.totalBytes += size;
    advance(target, repository, version, checksumOfLive(repository), now);
    return new MemoryOutcome.Written(stateOf(entry, kept.id));
  }

  /**
   * Changes a memory's content, its path (a rename keeps the memory id, and leaves a tombstone at
   * the old key so that {@code team_memory} clients delete the old file), or both. A request that
   * changes nothing answers the memory as it is, whatever its precondition; otherwise a
   * precondition names the content the caller last saw. An archived store refuses every update, one
   * that would change nothing included.
   */
  @Transactional
  public MemoryOutcome updateMemory(
      AuthorizedRepository target,
      String storeId,
      String memoryId,
      Optional<String> content,
      Optional<String> key,
      Optional<String> expectedChecksum,
      List<SecretFinding> secrets) {
    Optional<Repository> locked = lockStore(target, storeId);
    if (locked.isEmpty()) {
      return new MemoryOutcome.NotFound();
    }
    Repository repository = locked.get();
    if (repository.archivedAt != null) {
      return new MemoryOutcome.Archived();
    }
    MemoryEntry entry = liveMemory(repository, memoryId).orElse(null);
    if (entry == null) {
      return new MemoryOutcome.NotFound();
    }
    String newChecksum = content.map(Checksums::ofContent).orElse(entry.checksum);
    String oldKey = entry.entryKey;
    String newKey = key.orElse(oldKey);
    boolean contentChanges = !newChecksum.equals(entry.checksum);
    boolean moves = !newKey.equals(entry.entryKey);
    if (!contentChanges && !moves) {
      return new MemoryOutcome.Unchanged(stateOf(entry, currentVersionRow(repository, entry)));
    }
    if (expectedChecksum.isPresent() && !expectedChecksum.get().equals(entry.checksum)) {
      return new MemoryOutcome.PreconditionFailed(entry.checksum);
    }
    if (moves) {
      Optional<MemoryOutcome.PathConflict> conflict = pathConflict(repository, newKey, entry);
      if (conflict.isPresent()) {
        return conflict.get();
      }
    }
    int newSize =
        contentChanges ? (int) UnicodeText.utf8Length(content.orElseThrow()) : entry.sizeBytes;
    long bytes = repository.totalBytes + newSize - entry.sizeBytes;
    if (contentChanges) {
      Optional<MemoryOutcome> overLimit = overLimits(repository.entryCount, bytes);
      if (overLimit.isPresent()) {
        return overLimit.get();
      }
      if (!secrets.isEmpty()) {
        return new MemoryOutcome.SecretDetected(secrets);
      }
    }
    long version = repository.version + 1;
    Instant now = now();
    String user = target.caller().user();
    if (moves) {
      move(repository, entry, newKey, version, now, user);
    }
    if (contentChanges) {
      setContent(entry, content.orElseThrow(), newChecksum, newSize);
    }
    stamp(entry, version, now, user);
    EntryVersion kept = EntryVersion.of(entry, Operation.MODIFIED);
    kept.persist();
    retention.bound(repository.id, moves ? List.of(newKey, oldKey) : List.of(newKey));
    repository.totalBytes = bytes;
    advance(target, repository, version, checksumOfLive(repository), now);
    return new MemoryOutcome.Written(stateOf(entry, kept.id));
  }

  /**
   * Deletes a memory (a tombstone, as {@code team_memory}'s delete), only while its content is
   * {@code expectedChecksum} when one is given. An archived store is read-only: no memory of it is
   * deleted (the store itself can be).
   */
  @Transactional
  public MemoryOutcome deleteMemory(
      AuthorizedRepository target,
      String storeId,
      String memoryId,
      Optional<String> expectedChecksum) {
    Optional<Repository> locked = lockStore(target, storeId);
    if (locked.isEmpty()) {
      return new MemoryOutcome.NotFound();
    }
    Repository repository = locked.get();
    if (repository.archivedAt != null) {
      return new MemoryOutcome.Archived();
    }
    MemoryEntry entry = liveMemory(repository, memoryId).orElse(null);
    if (entry == null) {
      return new MemoryOutcome.NotFound();
    }
    if (expectedChecksum.isPresent() && !expectedChecksum.get().equals(entry.checksum)) {
      return new MemoryOutcome.PreconditionFailed(entry.checksum);
    }
    long version = repository.version + 1;
    Instant now = now();
    String key = entry.entryKey;
    tombstone(repository, entry, version, now, target.caller().user());
    retention.bound(repository.id, List.of(key));
    advance(target, repository, version, checksumWithout(repository, key, null), now);
    return new MemoryOutcome.Deleted(memoryId);
  }

  /**
   * Erases one kept version's content for good; both APIs then show it as redacted, hiding its path
   * and checksum too (they stay in the row, for the history's order and the key it belonged to).
   * The current version of a live memory cannot be redacted: update or delete the memory first.
   * Changes no repository version. Allowed in an archived store, as {@code team_memory}'s purge is:
   * redaction is how a leaked secret leaves the history, and an archive is never undone.
   */
  @Transactional
  public RedactOutcome redactVersion(
      AuthorizedRepository target, String storeId, long versionRowId) {
    Optional<Repository> locked = lockStore(target, storeId);
    if (locked.isEmpty()) {
      return new RedactOutcome.NotFound();
    }
    Repository repository = locked.get();
    EntryVersion kept = EntryVersion.findById(versionRowId);
    if (kept == null || kept.repositoryId != repository.id || kept.memoryId == null) {
      return new RedactOutcome.NotFound();
    }
    if (kept.redactedAt == null) {
      Optional<MemoryEntry> live = liveMemory(repository, kept.memoryId);
      if (live.isPresent() && currentVersionRow(repository, live.get()) == kept.id) {
        return new RedactOutcome.CurrentVersion();
      }
      kept.content = "";
      kept.redactedAt = now();
      kept.redactedBy = target.caller().user();
    }
    return new RedactOutcome.Redacted(kept.id);
  }

  // -------------------------------------------------------------------------------- helpers

  /**
   * The state as the target's caller sees it: where the repository requires review and the caller
   * does not review, with the checksum of their view ({@link CallerViews}), read in this
   * transaction (its own changes flushed first). So an {@code If-Match} is the caller's view's
   * checksum, and what a write answers is what their next read shows: a teammate's waiting change
   * never fails their precondition.
   */
  private RepositoryState asSeenBy(AuthorizedRepository target, RepositoryState state) {
    return seenIn(viewOf(target, state), state);
  }

  /** The state with the checksum of {@code view}, when the caller reads one. */
  private static RepositoryState seenIn(
      Optional<RepositoryReader.View> view, RepositoryState state) {
    return view.map(
            viewed ->
                new RepositoryState(
                    state.repo(), state.version(), viewed.checksum(), state.lastModified()))
        .orElse(state);
  }

  /** The caller's view, read in this transaction; empty when they read the newest state. */
  private Optional<RepositoryReader.View> viewOf(
      AuthorizedRepository target, RepositoryState state) {
    if (target.permission().allowsReview() || state.isNeverWritten()) {
      return Optional.empty();
    }
    entityManager.flush();
    return entityManager
        .unwrap(Session.class)
        .doReturningWork(
            connection -> {
              Optional<String> viewer = CallerViews.viewer(connection, target);
              return viewer.isEmpty()
                  ? Optional.<RepositoryReader.View>empty()
                  : RepositoryReader.view(connection, target.slug(), viewer.get());
            });
  }

  /**
   * Makes the rest of this read transaction see one snapshot. A write commits between two reads
   * otherwise, and a GET would pair one version's checksum with another's entries.
   */
  private void readConsistently() {
    entityManager
        .createNativeQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .executeUpdate();
  }

  /** The repository row of the store, locked; empty when the repository has another store now. */
  private Optional<Repository> lockStore(AuthorizedRepository target, String storeId) {
    return lock(target.slug()).filter(repository -> repository.storeId.equals(storeId));
  }

  private Optional<MemoryOutcome> overLimits(int entries, long bytes) {
    if (entries > limits.maxEntries()) {
      return Optional.of(new MemoryOutcome.TooManyEntries(limits.maxEntries()));
    }
    if (bytes > limits.maxRepositoryBytes()) {
      return Optional.of(new MemoryOutcome.RepositoryTooLarge(limits.maxRepositoryBytes()));
    }
    return Optional.empty();
  }

  /**
   * The first live memory whose key equals {@code key}, is a folder of it or lies inside it (a file
   * cannot also be a folder), other than {@code moving}.
   */
  private Optional<MemoryOutcome.PathConflict> pathConflict(
      Repository repository, String key, MemoryEntry moving) {
    List<String> ancestors = new ArrayList<>();
    for (int slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
      ancestors.add(key.substring(0, slash));
    }
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        entityManager
            .createNativeQuery(
                "SELECT entry_key, memory_id FROM memory_entry"
                    + " WHERE repository_id = ?1 AND NOT deleted AND memory_id <> ?2"
                    + " AND (entry_key = ?3 OR starts_with(entry_key, ?4)"
                    + " OR entry_key = ANY (CAST(?5 AS text[])))"
                    + " ORDER BY entry_key COLLATE \"C\" LIMIT 1")
            .setParameter(1, repository.id)
            .setParameter(2, moving == null ? "" : moving.memoryId)
            .setParameter(3, key)
            .setParameter(4, key + "/")
            .setParameter(5, PostgresArrays.textArray(ancestors))
            .getResultList();
    return rows.stream()
        .findFirst()
        .map(row -> new MemoryOutcome.PathConflict((String) row[0], (String) row[1]));
  }

  private static Optional<MemoryEntry> liveMemory(Repository repository, String memoryId) {
    return MemoryEntry.find(
            "repositoryId = ?1 and memoryId = ?2 and deleted = false", repository.id, memoryId)
        .firstResultOptional();
  }

  /**
   * The row of the memory's newest version that is not redacted: the one holding its current
   * content (after a purge, an older version may hold it again).
   */
  private long currentVersionRow(Repository repository, MemoryEntry entry) {
    Long row =
        entityManager
            .createQuery(
                "select max(v.id) from EntryVersion v where v.repositoryId = ?1"
                    + " and v.memoryId = ?2 and v.redactedAt is null",
                Long.class)
            .setParameter(1, repository.id)
            .setParameter(2, entry.memoryId)
            .getSingleResult();
    return row == null ? 0 : row;
  }

  private static MemoryState stateOf(MemoryEntry entry, long versionRowId) {
    return new MemoryState(
        entry.memoryId,
        entry.entryKey,
        entry.checksum,
        entry.sizeBytes,
        versionRowId,
        entry.createdAt,
        entry.updatedAt,
        entry.updatedBy,
        entry.content);
  }

  /**
   * Moves a live entry to {@code newKey}, keeping its row and memory id: a tombstone at the target
   * key gives way, and the old key becomes a tombstone of the content it held (a version of the
   * key, not of any memory). Flushed step by step: PostgreSQL checks the key's uniqueness row by
   * row.
   */
  private void move(
      Repository repository,
      MemoryEntry entry,
      String newKey,
      long version,
      Instant now,
      String user) {
    entry(repository, newKey).ifPresent(MemoryEntry::delete);
    entityManager.flush();
    String oldKey = entry.entryKey;
    entry.entryKey = newKey;
    entityManager.flush();
    MemoryEntry left = newEntry(repository, oldKey, now);
    setContent(left, "", entry.checksum, 0);
    left.deleted = true;
    stamp(left, version, now, user);
    left.persist();
    EntryVersion.of(left, Operation.MOVED).persist();
  }

  /** A key's entry that is not in the database yet, with a new memory id. */
  private static MemoryEntry newEntry(Repository repository, String key, Instant now) {
    MemoryEntry entry = new MemoryEntry();
    entry.repositoryId = repository.id;
    entry.entryKey = key;
    entry.memoryId = Ids.newMemory();
    entry.createdAt = now;
    return entry;
  }

  /** A tombstone written again is a new memory: delete-then-create never reuses a memory id. */
  private static void revive(MemoryEntry entry, Instant now) {
    entry.memoryId = Ids.newMemory();
    entry.createdAt = now;
  }

  private static void setContent(MemoryEntry entry, String content, String checksum, int size) {
    entry.content = content;
    entry.checksum = checksum;
    entry.sizeBytes = size;
    entry.deleted = false;
  }

  private static void stamp(MemoryEntry entry, long version, Instant now, String user) {
    entry.version = version;
    entry.updatedAt = now;
    entry.updatedBy = user;
  }

  /** Turns a live entry into a tombstone of its content, in {@code version}, with its history. */
  private static void tombstone(
      Repository repository, MemoryEntry entry, long version, Instant now, String user) {
    int size = entry.sizeBytes;
    entry.deleted = true;
    entry.content = ""; // the content stays in history; the tombstone keeps its checksum
    entry.sizeBytes = 0;
    stamp(entry, version, now, user);
    EntryVersion.of(entry, Operation.DELETED).persist();
    repository.entryCount -= 1;
    repository.totalBytes -= size;
  }

  /** The repository checksum of the live entries as this transaction has them (flushed first). */
  private String checksumOfLive(Repository repository) {
    entityManager.flush();
    Map<String, String> live = new LinkedHashMap<>();
    for (EntryState state : statesOf(repository)) {
      if (!state.deleted()) {
        live.put(state.entryKey(), state.checksum());
      }
    }
    return Checksums.ofRepository(live);
  }

  /** The repository row, locked until the transaction ends; empty when there is none. */
  private Optional<Repository> lock(RepositorySlug slug) {
    @SuppressWarnings("unchecked")
    List<Repository> rows =
        entityManager
            .createNativeQuery(
                "SELECT * FROM repository WHERE slug_key = ?1 FOR UPDATE", Repository.class)
            .setParameter(1, slug.key())
            .getResultList();
    return rows.stream().findFirst();
  }

  /**
   * Creates the repository row at version 0 unless a concurrent first writer did: that one's row
   * wins (ON CONFLICT DO NOTHING), and the lock taken next waits for it.
   */
  private void createIfAbsent(RepositorySlug slug) {
    entityManager
        .createNativeQuery(
            "INSERT INTO repository (slug, slug_key, version, checksum, last_modified)"
                + " VALUES (?1, ?2, 0, ?3, ?4) ON CONFLICT (slug_key) DO NOTHING")
        .setParameter(1, slug.toString())
        .setParameter(2, slug.key())
        .setParameter(3, Checksums.EMPTY)
        .setParameter(4, Instant.EPOCH)
        .executeUpdate();
  }

  private static boolean preconditionHolds(String ifMatch, RepositoryState current) {
    List<String> values = ETags.parseList(ifMatch);
    // Our choice: If-Match: * means "the repository exists", so it fails on a never-written one.
    return (values.contains("*") && !current.isNeverWritten())
        || values.contains(current.checksum());
  }

  /**
   * The repository's keys in UTF-8 order, read in plain SQL (see {@link EntryRows}), so without a
   * flush: callers account for their own unflushed change of one key.
   */
  private List<EntryState> statesOf(Repository repository) {
    return EntryRows.states(entityManager, repository.id);
  }

  private static Optional<MemoryEntry> entry(Repository repository, String key) {
    return MemoryEntry.find("repositoryId = ?1 and entryKey = ?2", repository.id, key)
        .firstResultOptional();
  }

  /**
   * The repository checksum over the live entries, with {@code key} left out, or set to {@code
   * checksum} when that is not null.
   */
  private String checksumWithout(Repository repository, String key, String checksum) {
    Map<String, String> live = new LinkedHashMap<>();
    for (EntryState state : statesOf(repository)) {
      if (!state.deleted() && !state.entryKey().equals(key)) {
        live.put(state.entryKey(), state.checksum());
      }
    }
    if (checksum != null) {
      live.put(key, checksum);
    }
    return Checksums.ofRepository(live);
  }

  /**
   * Moves the repository to its next version after a change by the target's caller: the keys it
   * wrote wait for review where the repository requires it ({@link ReviewQueue}).
   */
  private RepositoryState advance(
      AuthorizedRepository target,
      Repository repository,
      long version,
      String checksum,
      Instant now) {
    reviewQueue.recordWrites(target, repository.id, version, now);
    return advance(repository, version, checksum, now);
  }

  /** Moves the repository to its next version and tells every replica, once this commits. */
  private RepositoryState advance(
      Repository repository, long version, String checksum, Instant now) {
    repository.version = version;
    repository.checksum = requireNonNull(checksum, "checksum is null");
    repository.lastModified = now;
    // pg_notify inside the transaction is delivered when (and only if) it commits.
    entityManager
        .createNativeQuery("SELECT pg_notify(?1, ?2)")
        .setParameter(1, CHANGES_CHANNEL)
        .setParameter(2, repository.slugKey)
        .getSingleResult();
    return RepositoryState.of(repository);
  }

  private static <T> T rollBack(T outcome) {
    QuarkusTransaction.setRollbackOnly();
    return outcome;
  }

  private static Instant now() {
    // The protocol shows milliseconds; store what it shows, so that reads agree with writes.
    return Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }
}
