package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.ETags;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.Timestamps;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

  @Inject
  EntryStore(EntityManager entityManager, RepositoryReader reader, LimitsConfig limits) {
    this.entityManager = entityManager;
    this.reader = reader;
    this.limits = limits;
  }

  // ---------------------------------------------------------------------------------- reads

  /** The whole repository, or its hashes view, unless {@code ifNoneMatch} names its checksum. */
  ReadOutcome read(RepositorySlug slug, boolean hashesOnly, String ifNoneMatch) {
    return reader.read(slug, hashesOnly, ifNoneMatch);
  }

  /**
   * The hashes view of the repository; for a never-written one, the empty view (version 0, the
   * empty checksum), which is what a change feed compares against.
   */
  public HashesView hashes(RepositorySlug slug) {
    return reader.hashesOrEmpty(slug);
  }

  /** Every kept version of a key, newest first; empty when the repository was never written. */
  @Transactional
  Optional<EntryHistory> history(RepositorySlug slug, String key) {
    readConsistently();
    Repository repository = Repository.find("slugKey", slug.key()).firstResult();
    if (repository == null) {
      return Optional.empty();
    }
    List<EntryHistory.Version> versions = new ArrayList<>();
    for (EntryVersion kept :
        EntryVersion.<EntryVersion>list(
            "repositoryId = ?1 and entryKey = ?2 order by version desc", repository.id, key)) {
      versions.add(
          new EntryHistory.Version(
              kept.version,
              kept.checksum,
              kept.content,
              kept.author,
              Timestamps.format(kept.createdAt),
              kept.deleted));
    }
    return Optional.of(new EntryHistory(repository.slug, key, versions));
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
    // A row at version 0 is one this transaction just created: still never written.
    RepositoryState current =
        locked
            .filter(repository -> repository.version > 0)
            .map(RepositoryState::of)
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
      int size = (int) Utf8.length(entry.getValue());
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
          if (created) {
            entry = new MemoryEntry();
            entry.repositoryId = repository.id;
            entry.entryKey = key;
          }
          entry.content = entries.get(key);
          entry.checksum = putChecksums.get(key);
          entry.sizeBytes = size;
          entry.deleted = false;
          entry.version = version;
          entry.updatedAt = now;
          entry.updatedBy = target.caller().user();
          if (created) {
            entry.persist(); // after the fields: persist takes the row's state as it is now
          }
          EntryVersion.of(entry).persist();
          liveChecksums.put(key, entry.checksum);
        });
    RepositoryState state =
        advance(repository, version, Checksums.ofRepository(liveChecksums), now);
    repository.entryCount = liveEntries;
    repository.totalBytes = liveBytes;
    return new PutOutcome.Applied(state, putChecksums);
  }

  /** Turns a key into a tombstone: it leaves the entries and appears in {@code deletedKeys}. */
  @Transactional
  DeleteOutcome delete(AuthorizedRepository target, String key, Optional<String> ifMatch) {
    Optional<Repository> locked = lock(target.slug());
    if (locked.isEmpty()) {
      return new DeleteOutcome.NoSuchRepository();
    }
    Repository repository = locked.get();
    RepositoryState current = RepositoryState.of(repository);
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
    long version = repository.version + 1;
    Instant now = now();
    int size = entry.sizeBytes;
    entry.deleted = true;
    entry.content = ""; // the content stays in history; the tombstone keeps its checksum
    entry.sizeBytes = 0;
    entry.version = version;
    entry.updatedAt = now;
    entry.updatedBy = target.caller().user();
    EntryVersion.of(entry).persist();
    repository.entryCount -= 1;
    repository.totalBytes -= size;
    return new DeleteOutcome.Deleted(
        advance(repository, version, checksumWithout(repository, key, null), now));
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
    Optional<Repository> locked = lock(target.slug());
    if (locked.isEmpty()) {
      return new PurgeOutcome.NoSuchRepository();
    }
    Repository repository = locked.get();
    List<EntryVersion> kept =
        EntryVersion.list(
            "repositoryId = ?1 and entryKey = ?2 order by version desc", repository.id, key);
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
      entry.sizeBytes = (int) Utf8.length(entry.content);
      repository.totalBytes += entry.sizeBytes - oldSize;
    } else {
      entry.deleted = true;
      entry.content = "";
      entry.sizeBytes = 0;
      repository.entryCount -= 1;
      repository.totalBytes -= oldSize;
      if (previous.isEmpty()) {
        EntryVersion.of(entry).persist(); // history shows how the key ended
      }
    }
    String checksum =
        entry.deleted
            ? checksumWithout(repository, key, null)
            : checksumWithout(repository, key, entry.checksum);
    return new PurgeOutcome.Purged(advance(repository, newVersion, checksum, now), true);
  }

  // -------------------------------------------------------------------------------- helpers

  /**
   * Makes the rest of this read transaction see one snapshot. A write commits between two reads
   * otherwise, and a GET would pair one version's checksum with another's entries.
   */
  private void readConsistently() {
    entityManager
        .createNativeQuery("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .executeUpdate();
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
