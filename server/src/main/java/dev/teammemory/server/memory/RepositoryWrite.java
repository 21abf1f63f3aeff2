package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.database.PostgresArrays;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hibernate.Session;

/**
 * One write's hold on a repository, from {@link EntryStore#lock}: the repository row, locked until
 * the transaction ends, the caller the write is charged to, and what every write of both APIs and
 * the console is made of — stamp an entry, keep its version, tombstone it, move it, advance the
 * repository's version and wake the change feeds. The write's version and time are fixed once, on
 * first use, so that every entry a write stamps carries the same ones. It lives only inside the
 * transaction that locked the row; the rows themselves never leave this package.
 */
public final class RepositoryWrite {

  private final EntityManager entityManager;
  private final HistoryRetention retention;
  private final ReviewQueue reviewQueue;
  private final AuthorizedRepository target;
  private final Repository repository;
  private long version;
  private Instant now;

  RepositoryWrite(
      EntityManager entityManager,
      HistoryRetention retention,
      ReviewQueue reviewQueue,
      AuthorizedRepository target,
      Repository repository) {
    this.entityManager = entityManager;
    this.retention = retention;
    this.reviewQueue = reviewQueue;
    this.target = target;
    this.repository = repository;
  }

  /** A live memory of the locked repository, as a write may change it. */
  public static final class Memory {

    private final MemoryEntry entry;

    private Memory(MemoryEntry entry) {
      this.entry = entry;
    }

    public String memoryId() {
      return entry.memoryId;
    }

    public String key() {
      return entry.entryKey;
    }

    public String checksum() {
      return entry.checksum;
    }

    public int sizeBytes() {
      return entry.sizeBytes;
    }

    /**
     * Deleted in the newest state, by someone else's delete that waits for review, while the
     * caller's view still shows it ({@link #seenMemory}): a change of it brings it back.
     */
    public boolean deleted() {
      return entry.deleted;
    }
  }

  /** The live memory at a path a write wanted: its key and memory id. */
  public record PathHolder(String key, String memoryId) {
    public PathHolder {
      requireNonNull(key, "key is null");
      requireNonNull(memoryId, "memoryId is null");
    }
  }

  // ------------------------------------------------------------------------- the store's row

  public String storeId() {
    return repository.storeId;
  }

  /** The store's name; empty means the repository's slug. */
  public Optional<String> storeName() {
    return Optional.ofNullable(repository.storeName);
  }

  public String storeDescription() {
    return repository.storeDescription;
  }

  /** The store's metadata, a JSON object of strings, without the {@code repo} binding. */
  public String storeMetadata() {
    return repository.storeMetadata;
  }

  /** The locked repository's row id (what the store API's view reads are keyed by). */
  public long repositoryId() {
    return repository.id;
  }

  public int entryCount() {
    return repository.entryCount;
  }

  public long totalBytes() {
    return repository.totalBytes;
  }

  /** Sets the store's description and metadata; its update time moves only when they change. */
  public void describeStore(String description, String metadataJson) {
    if (!repository.storeDescription.equals(description)
        || !repository.storeMetadata.equals(metadataJson)) {
      repository.storeDescription = description;
      repository.storeMetadata = metadataJson;
      repository.storeUpdatedAt = now();
    }
  }

  /** Archives the store (once: archiving an archived store changes nothing). */
  public void archiveStore() {
    if (repository.archivedAt == null) {
      repository.archivedAt = now();
      repository.storeUpdatedAt = repository.archivedAt;
    }
  }

  /**
   * Deletes the store: every live memory becomes a tombstone in one new repository version, and the
   * repository gets a fresh store with no attributes, so that the deleted id is gone for good.
   */
  public void replaceStore() {
    List<MemoryEntry> live =
        MemoryEntry.list("repositoryId = ?1 and deleted = false", repository.id);
    if (!live.isEmpty()) {
      for (MemoryEntry entry : live) {
        tombstone(entry);
      }
      advance(Checksums.EMPTY);
    }
    repository.storeId = Ids.newStore();
    repository.storeName = null;
    repository.storeDescription = "";
    repository.storeMetadata = "{}";
    repository.storeUpdatedAt = null;
    repository.archivedAt = null;
  }

  // ------------------------------------------------------------------------------ memories

  /** The live memory with this id, if the repository has one. */
  public Optional<Memory> liveMemory(String memoryId) {
    return MemoryEntry.<MemoryEntry>find(
            "repositoryId = ?1 and memoryId = ?2 and deleted = false", repository.id, memoryId)
        .firstResultOptional()
        .map(Memory::new);
  }

  /**
   * The memory with this id as the write's caller may change it: the live one; or, for a caller who
   * reads a view of a repository under review ({@link CallerViews}), the one someone else's waiting
   * delete removed while their view still shows it live, which their change brings back as their
   * own waiting change.
   */
  public Optional<Memory> seenMemory(String memoryId) {
    Optional<Memory> live = liveMemory(memoryId);
    if (live.isPresent()) {
      return live;
    }
    Optional<String> viewer = viewer();
    if (viewer.isEmpty()) {
      return Optional.empty();
    }
    List<?> shown =
        entityManager
            .createNativeQuery(
                CallerViews.over(
                    "SELECT 1 FROM memory_entry WHERE repository_id = ?1 AND memory_id = ?2"
                        + " AND NOT deleted",
                    "?3"))
            .setParameter(1, repository.id)
            .setParameter(2, memoryId)
            .setParameter(3, viewer.get())
            .getResultList();
    if (shown.isEmpty()) {
      return Optional.empty();
    }
    return MemoryEntry.<MemoryEntry>find(
            "repositoryId = ?1 and memoryId = ?2 and deleted = true", repository.id, memoryId)
        .firstResultOptional()
        .map(Memory::new);
  }

  /** The user whose view the write's caller reads; empty when they read the newest state. */
  private Optional<String> viewer() {
    entityManager.flush();
    return entityManager
        .unwrap(Session.class)
        .doReturningWork(connection -> CallerViews.viewer(connection, target));
  }

  /** The memory as it is, with the row of its newest version that is not redacted. */
  public MemoryRow row(Memory memory) {
    return rowOf(memory.entry, currentVersionRow(memory.entry.memoryId));
  }

  /**
   * The first live memory whose key equals {@code key}, is a folder of it or lies inside it (a file
   * cannot also be a folder), other than {@code moving}.
   */
  public Optional<PathHolder> pathHolder(String key, Optional<Memory> moving) {
    return holder(key, moving, Optional.empty());
  }

  /** {@link #pathHolder} over {@code viewer}'s view when present, else the newest state. */
  private Optional<PathHolder> holder(
      String key, Optional<Memory> moving, Optional<String> viewer) {
    List<String> ancestors = new ArrayList<>();
    for (int slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
      ancestors.add(key.substring(0, slash));
    }
    String sql =
        "SELECT entry_key, memory_id FROM memory_entry"
            + " WHERE repository_id = ?1 AND NOT deleted AND memory_id <> ?2"
            + " AND (entry_key = ?3 OR starts_with(entry_key, ?4)"
            + " OR entry_key = ANY (CAST(?5 AS text[])))"
            + " ORDER BY entry_key COLLATE \"C\" LIMIT 1";
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        viewer
            .map(
                user ->
                    entityManager
                        .createNativeQuery(CallerViews.over(sql, "?6"))
                        .setParameter(6, user))
            .orElseGet(() -> entityManager.createNativeQuery(sql))
            .setParameter(1, repository.id)
            .setParameter(2, moving.map(Memory::memoryId).orElse(""))
            .setParameter(3, key)
            .setParameter(4, key + "/")
            .setParameter(5, PostgresArrays.textArray(ancestors))
            .getResultList();
    return rows.stream().findFirst().map(row -> new PathHolder((String) row[0], (String) row[1]));
  }

  /**
   * The memory holding {@code key} against a create, as the write's caller sees the repository
   * ({@link CallerViews}): a memory of their view at, above or below the path; else a memory hidden
   * from them (someone else's change waiting for review) above or below it. Someone else's waiting
   * memory at the very path holds nothing: the create over it is the caller's own change of the
   * key, as a {@code team_memory} PUT of the key is. Everyone who reads the newest state gets
   * {@link #pathHolder}.
   */
  public Optional<PathHolder> pathHolderOfCreate(String key) {
    Optional<String> viewer = viewer();
    if (viewer.isEmpty()) {
      return pathHolder(key, Optional.empty());
    }
    Optional<PathHolder> seen = holder(key, Optional.empty(), viewer);
    return seen.isPresent()
        ? seen
        : pathHolder(key, Optional.empty()).filter(holder -> !holder.key().equals(key));
  }

  /**
   * Creates a memory at {@code key} (reviving the key's tombstone under a new memory id) in a new
   * repository version. A key live under someone else's waiting change ({@link
   * #pathHolderOfCreate}) keeps its memory id and counts once.
   */
  public MemoryRow createMemory(String key, String content, int sizeBytes) {
    MemoryEntry existing = entry(key).orElse(null);
    boolean live = existing != null && !existing.deleted;
    int replacedBytes = live ? existing.sizeBytes : 0;
    MemoryEntry entry = write(key, content, Checksums.ofContent(content), sizeBytes, existing);
    EntryVersion kept = keep(entry, Operation.CREATED);
    retention.bound(repository.id, List.of(entry.entryKey));
    repository.entryCount += live ? 0 : 1;
    repository.totalBytes += sizeBytes - replacedBytes;
    advance(checksumOfLive());
    return rowOf(entry, kept.id);
  }

  /**
   * Changes a memory's path (a rename keeps the memory id and leaves a tombstone at the old key),
   * its content (when {@code content} is present), or both, in a new repository version. A memory
   * someone else's waiting delete removed ({@link Memory#deleted}) comes back, with {@code
   * content}.
   */
  public MemoryRow changeMemory(
      Memory memory, String newKey, Optional<String> content, int newSizeBytes) {
    MemoryEntry entry = memory.entry;
    if (entry.deleted) {
      if (content.isEmpty()) {
        throw new IllegalArgumentException("a deleted memory comes back with content: " + newKey);
      }
      repository.entryCount += 1;
    }
    String oldKey = entry.entryKey;
    boolean moves = !newKey.equals(oldKey);
    if (moves) {
      move(entry, newKey);
    }
    repository.totalBytes += newSizeBytes - entry.sizeBytes;
    if (content.isPresent()) {
      setContent(entry, content.get(), Checksums.ofContent(content.get()), newSizeBytes);
    }
    stamp(entry);
    EntryVersion kept = keep(entry, Operation.MODIFIED);
    retention.bound(repository.id, moves ? List.of(newKey, oldKey) : List.of(newKey));
    advance(checksumOfLive());
    return rowOf(entry, kept.id);
  }

  /** Deletes a memory: a tombstone of its content, in a new repository version. */
  public void deleteMemory(Memory memory) {
    String key = memory.entry.entryKey;
    tombstone(memory.entry);
    retention.bound(repository.id, List.of(key));
    advance(checksumWithout(key, null));
  }

  /**
   * Erases one kept version's content for good. The current version of a live memory cannot be
   * erased; changes no repository version.
   */
  public RedactOutcome redactVersion(long versionRowId) {
    EntryVersion kept = EntryVersion.findById(versionRowId);
    if (kept == null || kept.repositoryId != repository.id || kept.memoryId == null) {
      return new RedactOutcome.NotFound();
    }
    if (kept.redactedAt == null) {
      Optional<Memory> live = liveMemory(kept.memoryId);
      if (live.isPresent() && currentVersionRow(kept.memoryId) == kept.id) {
        return new RedactOutcome.CurrentVersion();
      }
      kept.content = "";
      kept.redactedAt = now();
      kept.redactedBy = target.caller().user();
    }
    return new RedactOutcome.Redacted(kept.id);
  }

  // ------------------------------------------------- the primitives, for EntryStore's writes

  /** The locked row, for the writes of this package. */
  Repository repository() {
    return repository;
  }

  /** The repository's state as this transaction has it. */
  RepositoryState state() {
    return RepositoryState.of(repository);
  }

  /** The version this write gives what it changes: one past the repository's, fixed once. */
  long version() {
    if (version == 0) {
      version = repository.version + 1;
    }
    return version;
  }

  /** The time of this write, fixed once, in the milliseconds the protocol shows. */
  Instant now() {
    if (now == null) {
      now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
    return now;
  }

  /** The key's entry, live or a tombstone. */
  Optional<MemoryEntry> entry(String key) {
    return MemoryEntry.find("repositoryId = ?1 and entryKey = ?2", repository.id, key)
        .firstResultOptional();
  }

  /**
   * The repository's keys in UTF-8 order, read in plain SQL (see {@link EntryRows}), so without a
   * flush: callers account for their own unflushed change of one key.
   */
  List<EntryState> states() {
    return EntryRows.states(entityManager, repository.id);
  }

  /**
   * Sets {@code key} to {@code content}, stamped with this write: into {@code existing} (the key's
   * entry, live or a tombstone) when not null, else into a new entry. A tombstone written again, or
   * a new key, is a new memory; a new entry is persisted after its fields are set.
   */
  MemoryEntry write(String key, String content, String checksum, int size, MemoryEntry existing) {
    MemoryEntry entry = existing;
    boolean created = entry == null;
    if (created) {
      entry = newEntry(key);
    } else if (entry.deleted) {
      // A tombstone written again is a new memory: delete-then-create never reuses a memory id.
      entry.memoryId = Ids.newMemory();
      entry.createdAt = now();
    }
    setContent(entry, content, checksum, size);
    stamp(entry);
    if (created) {
      entry.persist(); // after the fields: persist takes the row's state as it is now
    }
    return entry;
  }

  /** Keeps the entry's state as one of its versions. */
  EntryVersion keep(MemoryEntry entry, Operation operation) {
    EntryVersion kept = EntryVersion.of(entry, operation);
    kept.persist();
    return kept;
  }

  /** Bounds the history of the keys this write changed. */
  void boundHistory(Collection<String> keys) {
    retention.bound(repository.id, keys);
  }

  /** Stamps the entry with this write's version, time and caller. */
  void stamp(MemoryEntry entry) {
    entry.version = version();
    entry.updatedAt = now();
    entry.updatedBy = target.caller().user();
  }

  /** Turns a live entry into a tombstone of its content, with its history. */
  void tombstone(MemoryEntry entry) {
    int size = entry.sizeBytes;
    entry.deleted = true;
    entry.content = ""; // the content stays in history; the tombstone keeps its checksum
    entry.sizeBytes = 0;
    stamp(entry);
    keep(entry, Operation.DELETED);
    repository.entryCount -= 1;
    repository.totalBytes -= size;
  }

  /**
   * The repository checksum over the live entries, with {@code key} left out, or set to {@code
   * checksum} when that is not null.
   */
  String checksumWithout(String key, String checksum) {
    Map<String, String> live = new LinkedHashMap<>();
    for (EntryState state : states()) {
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
   * Moves the repository to this write's version after a change by the caller: the keys it wrote
   * wait for review where the repository requires it ({@link ReviewQueue}).
   */
  RepositoryState advance(String checksum) {
    reviewQueue.recordWrites(target, repository.id, version(), now());
    return advanceUnreviewed(checksum);
  }

  /**
   * Moves the repository to this write's version and tells every replica, once this commits; what
   * the write changed is not recorded for review (an approval, a purge).
   */
  RepositoryState advanceUnreviewed(String checksum) {
    repository.version = version();
    repository.checksum = requireNonNull(checksum, "checksum is null");
    repository.lastModified = now();
    // pg_notify inside the transaction is delivered when (and only if) it commits.
    entityManager
        .createNativeQuery("SELECT pg_notify(?1, ?2)")
        .setParameter(1, EntryStore.CHANGES_CHANNEL)
        .setParameter(2, repository.slugKey)
        .getSingleResult();
    return RepositoryState.of(repository);
  }

  // --------------------------------------------------------------------------------- helpers

  private static MemoryRow rowOf(MemoryEntry entry, long versionRowId) {
    return new MemoryRow(
        entry.memoryId,
        entry.entryKey,
        entry.checksum,
        entry.sizeBytes,
        versionRowId,
        entry.createdAt,
        entry.updatedAt,
        entry.updatedBy,
        Optional.of(entry.content));
  }

  /**
   * The row of the memory's newest version that is not redacted: the one holding its current
   * content (after a purge, an older version may hold it again).
   */
  private long currentVersionRow(String memoryId) {
    Long row =
        entityManager
            .createQuery(
                "select max(v.id) from EntryVersion v where v.repositoryId = ?1"
                    + " and v.memoryId = ?2 and v.redactedAt is null",
                Long.class)
            .setParameter(1, repository.id)
            .setParameter(2, memoryId)
            .getSingleResult();
    return row == null ? 0 : row;
  }

  /**
   * Moves a live entry to {@code newKey}, keeping its row and memory id: a tombstone at the target
   * key gives way, and the old key becomes a tombstone of the content it held (a version of the
   * key, not of any memory). Flushed step by step: PostgreSQL checks the key's uniqueness row by
   * row.
   */
  private void move(MemoryEntry entry, String newKey) {
    entry(newKey).ifPresent(MemoryEntry::delete);
    entityManager.flush();
    String oldKey = entry.entryKey;
    entry.entryKey = newKey;
    entityManager.flush();
    MemoryEntry left = newEntry(oldKey);
    setContent(left, "", entry.checksum, 0);
    left.deleted = true;
    stamp(left);
    left.persist();
    keep(left, Operation.MOVED);
  }

  /** A key's entry that is not in the database yet, with a new memory id. */
  private MemoryEntry newEntry(String key) {
    MemoryEntry entry = new MemoryEntry();
    entry.repositoryId = repository.id;
    entry.entryKey = key;
    entry.memoryId = Ids.newMemory();
    entry.createdAt = now();
    return entry;
  }

  private static void setContent(MemoryEntry entry, String content, String checksum, int size) {
    entry.content = content;
    entry.checksum = checksum;
    entry.sizeBytes = size;
    entry.deleted = false;
  }

  /** The repository checksum of the live entries as this transaction has them (flushed first). */
  private String checksumOfLive() {
    entityManager.flush();
    Map<String, String> live = new LinkedHashMap<>();
    for (EntryState state : states()) {
      if (!state.deleted()) {
        live.put(state.entryKey(), state.checksum());
      }
    }
    return Checksums.ofRepository(live);
  }
}
