package dev.teammemory.server.stores;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.memory.CallerViews;
import dev.teammemory.server.memory.EntryStore;
import dev.teammemory.server.memory.MemoryRow;
import dev.teammemory.server.memory.RedactOutcome;
import dev.teammemory.server.memory.RepositoryLock;
import dev.teammemory.server.memory.RepositoryWrite;
import dev.teammemory.server.secrets.SecretFinding;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The Memory Stores API's writes, beside its reads ({@link StoreReader}): what each write checks,
 * in which order, and what it comes to. Each is one transaction over the entry store's primitives
 * ({@link EntryStore#lockStore} locks the repository row, the same row {@code team_memory}'s writes
 * lock, and {@link RepositoryWrite} stamps, keeps versions, tombstones, advances the repository's
 * version and wakes the change feeds), so both APIs' writes serialise per repository and each one
 * moves the version the other's clients follow.
 */
@ApplicationScoped
public class StoreWrites {

  private final EntryStore entries;
  private final CallerViews views;
  private final StoreReader reader;

  /** The limits a write of new content is checked against (fixed for the server's life). */
  private final int maxEntries;

  private final long maxBytes;

  @Inject
  StoreWrites(EntryStore entries, CallerViews views, StoreReader reader, LimitsConfig limits) {
    this.entries = entries;
    this.views = views;
    this.reader = reader;
    this.maxEntries = limits.maxEntries();
    this.maxBytes = limits.maxRepositoryBytes();
  }

  /**
   * The store of the repository: an existing one as it is (whatever {@code attributes} say), else a
   * new one with these attributes, which for {@code team_memory} is a never-written repository.
   */
  @Transactional
  public StoreOutcome createStore(AuthorizedRepository target, StoreAttributes attributes) {
    EntryStore.CreatedStore store =
        entries.createStore(
            target, attributes.name(), attributes.description(), attributes.metadataJson());
    return new StoreOutcome.Done(store.storeId(), store.created());
  }

  /**
   * Sets the store's description and metadata to what {@code change} makes of them, applied to the
   * locked row (so concurrent updates compose); its name and binding never change. An exception
   * from {@code change} leaves the store as it was.
   */
  @Transactional
  public StoreOutcome updateStore(
      AuthorizedRepository target, String storeId, UnaryOperator<StoreAttributes> change) {
    return switch (entries.lockStore(target, storeId)) {
      case RepositoryLock.Absent absent -> new StoreOutcome.NotFound();
      case RepositoryLock.Archived archived -> new StoreOutcome.Archived();
      case RepositoryLock.Held held -> {
        RepositoryWrite write = held.held();
        StoreAttributes changed =
            change.apply(
                new StoreAttributes(
                    write.storeName(), write.storeDescription(), write.storeMetadata()));
        write.describeStore(changed.description(), changed.metadataJson());
        yield new StoreOutcome.Done(storeId, false);
      }
    };
  }

  /**
   * Archives the store: from now on it takes no writes through either API, and its memories stay
   * readable. Archiving an archived store changes nothing.
   */
  @Transactional
  public StoreOutcome archiveStore(AuthorizedRepository target, String storeId) {
    return onStore(target, storeId, RepositoryWrite::archiveStore);
  }

  /**
   * Deletes the store, archived or not: every live memory becomes a tombstone in one new repository
   * version (history is kept, and {@code team_memory} clients delete their copies), and the
   * repository gets a fresh store, so that the deleted id is gone for good.
   */
  @Transactional
  public StoreOutcome deleteStore(AuthorizedRepository target, String storeId) {
    return onStore(target, storeId, RepositoryWrite::replaceStore);
  }

  /**
   * Creates a memory at {@code key} (reviving the key's tombstone under a new memory id), checked
   * under the repository lock in this order: the store exists and is not archived, no memory's path
   * equals, contains or is contained by this one (as the caller sees the repository: {@link
   * RepositoryWrite#pathHolderOfCreate}), the limits, the secrets.
   */
  @Transactional
  public MemoryOutcome createMemory(
      AuthorizedRepository target,
      String storeId,
      String key,
      String content,
      List<SecretFinding> secrets) {
    return onMemories(
        target,
        storeId,
        write -> {
          Optional<RepositoryWrite.PathHolder> holder = write.pathHolderOfCreate(key);
          if (holder.isPresent()) {
            return conflict(holder.get());
          }
          int size = (int) UnicodeText.utf8Length(content);
          Optional<MemoryOutcome> refused =
              refusal(write.entryCount() + 1, write.totalBytes() + size, secrets);
          return refused.orElseGet(
              () -> new MemoryOutcome.Written(write.createMemory(key, content, size)));
        });
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
    return onMemories(
        target,
        storeId,
        write -> {
          Optional<RepositoryWrite.Memory> found = write.seenMemory(memoryId);
          if (found.isEmpty()) {
            return new MemoryOutcome.NotFound();
          }
          RepositoryWrite.Memory memory = found.get();
          Optional<MemoryRow> seen = seenBy(target, write, memory);
          if (seen.isEmpty()) {
            return new MemoryOutcome.NotFound();
          }
          String seenChecksum = seen.get().checksum();
          // A memory a teammate's waiting delete removed comes back with what the caller writes, or
          // else with the content they see.
          boolean revives = memory.deleted();
          Optional<String> written =
              revives
                  ? Optional.of(content.orElseGet(() -> seen.get().content().orElseThrow()))
                  : content;
          String newKey = key.orElse(memory.key());
          // Whether the caller changes anything is judged against what they see: content that
          // equals a teammate's waiting change is still this caller's change of the approved one.
          boolean contentChanges =
              !content.map(Checksums::ofContent).orElse(seenChecksum).equals(seenChecksum);
          boolean moves = !newKey.equals(memory.key());
          if (!contentChanges && !moves) {
            return new MemoryOutcome.Unchanged(seen.get());
          }
          Optional<MemoryOutcome> stale = stale(seenChecksum, expectedChecksum);
          if (stale.isPresent()) {
            return stale.get();
          }
          if (moves) {
            Optional<RepositoryWrite.PathHolder> holder =
                write.pathHolder(newKey, Optional.of(memory));
            if (holder.isPresent()) {
              return conflict(holder.get());
            }
          }
          boolean writesContent = contentChanges || revives;
          int newSize =
              writesContent ? (int) UnicodeText.utf8Length(written.get()) : memory.sizeBytes();
          if (writesContent) {
            Optional<MemoryOutcome> refused =
                refusal(
                    write.entryCount() + (revives ? 1 : 0),
                    write.totalBytes() + newSize - memory.sizeBytes(),
                    secrets);
            if (refused.isPresent()) {
              return refused.get();
            }
          }
          return new MemoryOutcome.Written(
              write.changeMemory(
                  memory, newKey, writesContent ? written : Optional.empty(), newSize));
        });
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
    return onMemory(
        target,
        storeId,
        memoryId,
        (write, memory) ->
            seenBy(target, write, memory)
                .map(seen -> stale(seen.checksum(), expectedChecksum))
                .orElseGet(() -> Optional.of(new MemoryOutcome.NotFound()))
                .orElseGet(
                    () -> {
                      write.deleteMemory(memory);
                      return new MemoryOutcome.Deleted(memoryId);
                    }));
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
    return entries
        .lockStore(target, storeId)
        .write()
        .map(write -> write.redactVersion(versionRowId))
        .orElseGet(RedactOutcome.NotFound::new);
  }

  /** A change of the store itself, archived or not; not found when the store is gone. */
  private StoreOutcome onStore(
      AuthorizedRepository target, String storeId, Consumer<RepositoryWrite> change) {
    Optional<RepositoryWrite> write = entries.lockStore(target, storeId).write();
    if (write.isEmpty()) {
      return new StoreOutcome.NotFound();
    }
    change.accept(write.get());
    return new StoreOutcome.Done(storeId, false);
  }

  /** A write of the store's memories: refused when the store is gone or archived. */
  private MemoryOutcome onMemories(
      AuthorizedRepository target, String storeId, Function<RepositoryWrite, MemoryOutcome> write) {
    return switch (entries.lockStore(target, storeId)) {
      case RepositoryLock.Absent absent -> new MemoryOutcome.NotFound();
      case RepositoryLock.Archived archived -> new MemoryOutcome.Archived();
      case RepositoryLock.Held held -> write.apply(held.held());
    };
  }

  /** A write of one live memory of the store: not found when the store or the memory is gone. */
  private MemoryOutcome onMemory(
      AuthorizedRepository target,
      String storeId,
      String memoryId,
      BiFunction<RepositoryWrite, RepositoryWrite.Memory, MemoryOutcome> write) {
    return onMemories(
        target,
        storeId,
        held ->
            held.liveMemory(memoryId)
                .map(memory -> write.apply(held, memory))
                .orElseGet(MemoryOutcome.NotFound::new));
  }

  /**
   * The memory as the target's caller sees it ({@link CallerViews}): with review required, someone
   * who does not review sees its approved version or their own waiting change, and nothing of a
   * memory never approved (empty); everyone else the memory as it is.
   */
  private Optional<MemoryRow> seenBy(
      AuthorizedRepository target, RepositoryWrite write, RepositoryWrite.Memory memory) {
    Optional<String> viewer = views.viewer(target);
    if (viewer.isEmpty()) {
      return Optional.of(write.row(memory));
    }
    return reader.memory(viewer.get(), write.repositoryId(), memory.memoryId(), true);
  }

  /**
   * The refusal of a write whose precondition names content other than what the caller sees of the
   * memory (a teammate's change waiting for review is not a reason to refuse it).
   */
  private static Optional<MemoryOutcome> stale(String seen, Optional<String> expectedChecksum) {
    return expectedChecksum
        .filter(expected -> !expected.equals(seen))
        .<MemoryOutcome>map(expected -> new MemoryOutcome.PreconditionFailed(seen));
  }

  /** What refuses new content, in this order: the limits after the write, then its secrets. */
  private Optional<MemoryOutcome> refusal(int entries, long bytes, List<SecretFinding> secrets) {
    if (entries > maxEntries) {
      return Optional.of(new MemoryOutcome.TooManyEntries(maxEntries));
    }
    if (bytes > maxBytes) {
      return Optional.of(new MemoryOutcome.RepositoryTooLarge(maxBytes));
    }
    if (!secrets.isEmpty()) {
      return Optional.of(new MemoryOutcome.SecretDetected(secrets));
    }
    return Optional.empty();
  }

  private static MemoryOutcome conflict(RepositoryWrite.PathHolder holder) {
    return new MemoryOutcome.PathConflict(holder.key(), holder.memoryId());
  }
}
