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
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.secrets.SecretFinding;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hibernate.Session;

/**
 * Each repository's entries on PostgreSQL. Every write is one transaction that first locks the
 * repository row ({@code SELECT … FOR UPDATE}), so writers to one repository serialise and each
 * sees the state the previous one committed; conditions ({@code If-Match}, limits, secrets) are
 * checked under that lock and a refused write rolls back whole. Every content a write produces is
 * also kept in {@code memory_entry_version}, and every committed write announces itself with {@code
 * NOTIFY} so that waiting change feeds on every replica wake up.
 *
 * <p>Here are {@code team_memory}'s writes and the console's; the Memory Stores API's are {@code
 * stores.StoreWrites}, over the same primitives: {@link #lockStore} (the one lock, its refusals a
 * {@link RepositoryLock}) and {@link RepositoryWrite} (stamp, keep, tombstone, advance, notify).
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
    RepositoryLock lock = lock(target);
    if (lock instanceof RepositoryLock.Absent && !entries.isEmpty()) {
      createIfAbsent(target.slug());
      lock = lock(target);
    }
    if (lock instanceof RepositoryLock.Archived) {
      return rollBack(new PutOutcome.Archived());
    }
    Optional<RepositoryWrite> held = lock.write();
    RepositoryState newest = written(held, target.slug());
    Optional<RepositoryReader.View> view = viewOf(target, newest);
    RepositoryState current = seenIn(view, newest);
    if (ifMatch.isPresent() && !preconditionHolds(ifMatch.get(), current)) {
      return rollBack(new PutOutcome.PreconditionFailed(current.checksum()));
    }
    if (entries.isEmpty()) {
      return new PutOutcome.Unchanged(current, Map.of());
    }
    RepositoryWrite write = held.orElseThrow();
    Repository repository = write.repository();

    Map<String, EntryState> states = new LinkedHashMap<>();
    int liveEntries = 0;
    long liveBytes = 0;
    for (EntryState state : write.states()) {
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
      // Unchanged is judged against what the caller sees: content that equals a teammate's
      // waiting change is still this caller's change of the approved version.
      String seen =
          view.isPresent()
              ? view.get().live().get(entry.getKey())
              : live ? previous.checksum() : null;
      if (checksum.equals(seen)) {
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
          MemoryEntry previous = existing.get(key);
          Operation operation =
              previous == null || previous.deleted ? Operation.CREATED : Operation.MODIFIED;
          MemoryEntry entry =
              write.write(key, entries.get(key), putChecksums.get(key), size, previous);
          write.keep(entry, operation);
          liveChecksums.put(key, entry.checksum);
        });
    RepositoryState state = write.advance(Checksums.ofRepository(liveChecksums));
    repository.entryCount = liveEntries;
    repository.totalBytes = liveBytes;
    write.boundHistory(changedSizes.keySet());
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
    RepositoryLock lock = lock(target);
    Optional<RepositoryWrite> held = lock.write().filter(EntryStore::everWritten);
    if (held.isEmpty()) {
      return new DeleteOutcome.NoSuchRepository();
    }
    if (lock instanceof RepositoryLock.Archived) {
      return new DeleteOutcome.Archived();
    }
    RepositoryWrite write = held.get();
    Optional<RepositoryReader.View> view = viewOf(target, write.state());
    RepositoryState current = seenIn(view, write.state());
    if (ifMatch.isPresent() && !preconditionHolds(ifMatch.get(), current)) {
      return new DeleteOutcome.PreconditionFailed(current.checksum());
    }
    MemoryEntry entry = write.entry(key).orElse(null);
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
    write.tombstone(entry);
    write.boundHistory(List.of(key));
    return new DeleteOutcome.Deleted(
        asSeenBy(target, write.advance(write.checksumWithout(key, null))));
  }

  /**
   * A reviewer's approval of the key's kept {@code version}: it becomes the version teammates see
   * (the approved-version pointer), and the key and the repository are stamped with a new version
   * (content and checksum unchanged) so that every change-feed form wakes. Empty when the
   * repository or the key is gone.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  Optional<RepositoryState> approve(AuthorizedRepository reviewer, String key, long version) {
    Optional<RepositoryWrite> held = lock(reviewer).write();
    Optional<MemoryEntry> found = held.flatMap(write -> write.entry(key));
    if (found.isEmpty()) {
      return Optional.empty();
    }
    RepositoryWrite write = held.get();
    MemoryEntry entry = found.get();
    entry.version = write.version();
    entityManager.flush();
    entityManager
        .createNativeQuery("UPDATE memory_entry SET approved_version = ?1 WHERE id = ?2")
        .setParameter(1, version)
        .setParameter(2, entry.id)
        .executeUpdate();
    return Optional.of(write.advanceUnreviewed(write.repository().checksum));
  }

  /**
   * Review switched off: every key whose newest version is not the approved one (a change that
   * waited, or was never approved) is stamped with one new repository version (contents and
   * checksum unchanged), so that every change-feed form wakes teammates, whose views change to the
   * newest. Empty when nothing needed it, or the repository was never written.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  Optional<RepositoryState> publish(AuthorizedRepository admin) {
    Optional<RepositoryWrite> held = lock(admin).write().filter(EntryStore::everWritten);
    if (held.isEmpty()) {
      return Optional.empty();
    }
    RepositoryWrite write = held.get();
    long newVersion = write.version();
    entityManager.flush();
    int stamped =
        entityManager
            .createNativeQuery(
                "UPDATE memory_entry SET version = ?1 WHERE repository_id = ?2"
                    + " AND approved_version IS DISTINCT FROM version")
            .setParameter(1, newVersion)
            .setParameter(2, write.repository().id)
            .executeUpdate();
    if (stamped == 0) {
      return Optional.empty();
    }
    return Optional.of(write.advanceUnreviewed(write.repository().checksum));
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
    Optional<RepositoryWrite> held = lock(target).write().filter(EntryStore::everWritten);
    if (held.isEmpty()) {
      return new PurgeOutcome.NoSuchRepository();
    }
    RepositoryWrite write = held.get();
    Repository repository = write.repository();
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
    MemoryEntry entry = write.entry(key).orElseThrow();
    boolean isCurrentContent = !entry.deleted && kept.get(0) == purged;
    purged.delete();
    if (!isCurrentContent) {
      return new PurgeOutcome.Purged(write.state(), false);
    }
    Optional<EntryVersion> previous = kept.stream().skip(1).findFirst();
    int oldSize = entry.sizeBytes;
    write.stamp(entry);
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
        write.keep(entry, Operation.DELETED); // history shows how the key ended
      }
    }
    String checksum =
        entry.deleted
            ? write.checksumWithout(key, null)
            : write.checksumWithout(key, entry.checksum);
    return new PurgeOutcome.Purged(write.advanceUnreviewed(checksum), true);
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
    Optional<RepositoryWrite> held = lock(target).write();
    long current = held.flatMap(write -> write.entry(key)).map(entry -> entry.version).orElse(0L);
    if (current != expectedVersion) {
      return rollBack(
          new PutOutcome.PreconditionFailed(
              held.map(write -> write.repository().checksum).orElse(Checksums.EMPTY)));
    }
    return put(target, Map.of(key, content), Optional.empty(), secrets);
  }

  /** {@link #delete} of a key only while it is still at {@code expectedVersion}. */
  @Transactional
  DeleteOutcome deleteKeyAtVersion(AuthorizedRepository target, String key, long expectedVersion) {
    Optional<MemoryEntry> entry = lock(target).write().flatMap(write -> write.entry(key));
    if (entry.isPresent() && entry.get().version != expectedVersion) {
      return new DeleteOutcome.KeyChanged(entry.get().checksum);
    }
    return delete(target, key, Optional.empty(), Optional.empty());
  }

  // ---------------------------------------------------------- primitives of the store API

  /** A store a create asked for: the repository's, {@code created} when this request made it. */
  public record CreatedStore(String storeId, boolean created) {
    public CreatedStore {
      requireNonNull(storeId, "storeId is null");
    }
  }

  /**
   * The store of the target repository: an existing one as it is (whatever the attributes say),
   * else a new one with these attributes, which for {@code team_memory} is a never-written
   * repository.
   *
   * @param name the store's name; empty means the repository's slug
   * @param metadataJson its metadata, a JSON object of strings, without the {@code repo} binding
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public CreatedStore createStore(
      AuthorizedRepository target, Optional<String> name, String description, String metadataJson) {
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
            .setParameter(6, name.orElse(null))
            .setParameter(7, description)
            .setParameter(8, metadataJson)
            .getResultList();
    if (!created.isEmpty()) {
      return new CreatedStore(created.get(0), true);
    }
    Repository existing = Repository.find("slugKey", slug.key()).firstResult();
    return new CreatedStore(existing.storeId, false);
  }

  /**
   * The row of the target repository's store {@code storeId}, locked for a write until the
   * transaction ends; {@link RepositoryLock.Absent} when the repository has another store now.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public RepositoryLock lockStore(AuthorizedRepository target, String storeId) {
    return lock(target, Optional.of(storeId));
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

  /** The target repository's row, locked until the transaction ends. */
  private RepositoryLock lock(AuthorizedRepository target) {
    return lock(target, Optional.empty());
  }

  /**
   * The one lock of every write: the repository row ({@code SELECT … FOR UPDATE}), held until the
   * transaction ends, as a write of the target's caller; with {@code storeId}, only while the row
   * still has that store.
   */
  private RepositoryLock lock(AuthorizedRepository target, Optional<String> storeId) {
    @SuppressWarnings("unchecked")
    List<Repository> rows =
        entityManager
            .createNativeQuery(
                "SELECT * FROM repository WHERE slug_key = ?1 FOR UPDATE", Repository.class)
            .setParameter(1, target.slug().key())
            .getResultList();
    Optional<Repository> locked =
        rows.stream()
            .findFirst()
            .filter(row -> storeId.map(id -> id.equals(row.storeId)).orElse(true));
    if (locked.isEmpty()) {
      return new RepositoryLock.Absent();
    }
    Repository repository = locked.get();
    RepositoryWrite write =
        new RepositoryWrite(entityManager, retention, reviewQueue, target, repository);
    return repository.archivedAt == null
        ? new RepositoryLock.Held(write)
        : new RepositoryLock.Archived(write);
  }

  /** A row at version 0 was created empty (by this transaction or as a store): never written. */
  private static boolean everWritten(RepositoryWrite write) {
    return write.repository().version > 0;
  }

  /** The repository's state for a precondition: never written unless a write advanced it. */
  private static RepositoryState written(Optional<RepositoryWrite> held, RepositorySlug slug) {
    return held.filter(EntryStore::everWritten)
        .map(RepositoryWrite::state)
        .orElse(RepositoryState.neverWritten(slug.toString()));
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

  private static <T> T rollBack(T outcome) {
    QuarkusTransaction.setRollbackOnly();
    return outcome;
  }
}
