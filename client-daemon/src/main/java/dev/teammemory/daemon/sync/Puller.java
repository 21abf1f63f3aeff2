package dev.teammemory.daemon.sync;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.protocol.client.MemoryStoreClient;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.protocol.store.ExportSummary;
import dev.teammemory.protocol.store.MemoryPage;
import dev.teammemory.protocol.store.StoredMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Brings the server's state into the team folder. Server wins per key, except a key edited locally
 * since the last sync, which is kept (and pushed, reported as a conflict when the server changed it
 * too). Identical files are not rewritten; local files the server lacks stay.
 */
final class Puller {

  private static final Logger LOG = Logger.getLogger(Puller.class.getName());

  private final String repo;
  private final TeamMemoryClient client;
  private final TeamFolder folder;
  private final Path savedCopies;

  Puller(String repo, TeamMemoryClient client, TeamFolder folder, Path savedCopies) {
    this.repo = repo;
    this.client = client;
    this.folder = folder;
    this.savedCopies = savedCopies;
  }

  PullOutcome pull(SyncLedger ledger, boolean onlyIfChanged) {
    Response<RepositorySnapshot> response =
        client.fetch(
            repo, onlyIfChanged ? Optional.of(ledger.repositoryChecksum()) : Optional.empty());
    return switch (response) {
      case Response.Ok<RepositorySnapshot> ok ->
          apply(
              ledger, ok.body().content().entries(), ok.body().deletedKeys(), ok.body().checksum());
      case Response.NotModified<RepositorySnapshot> notModified -> new PullOutcome.Unchanged();
      // A 404 on a read means a repository nobody wrote yet: empty.
      case Response.NotFound<RepositorySnapshot> notFound ->
          apply(ledger, Map.of(), Map.of(), Checksums.EMPTY);
      default -> PullOutcome.notPulled(response, repo, "the pull");
    };
  }

  /**
   * Follows the repository by version when the server serves the Memory Stores API: reads only the
   * memories the change feed names with a checksum the ledger does not know, then applies them and
   * the deletes. A reset (or a ledger that never saw a version) reads the whole repository once and
   * lists the memory ids.
   */
  PullOutcome pullChanges(SyncLedger ledger, VersionChanges changes) {
    String storeId = ledger.storeId().orElseThrow();
    MemoryStoreClient store = client.memoryStores();
    if (changes.reset() || ledger.version() == 0) {
      return pullWhole(ledger);
    }
    Map<String, String> contents = new TreeMap<>();
    boolean listed = false;
    for (Map.Entry<String, String> changed : changes.changed().entrySet()) {
      String key = changed.getKey();
      if (ledger.serverChecksum(key).filter(changed.getValue()::equals).isPresent()) {
        continue; // our own write, or one already applied
      }
      if (ledger.memoryId(key).isEmpty() && !listed) {
        // A memory a teammate created: its id is learned from one listing (no content).
        Optional<PullOutcome> failed = listIds(ledger, store, storeId);
        if (failed.isPresent()) {
          return failed.get();
        }
        listed = true;
      }
      Optional<String> id = ledger.memoryId(key);
      if (id.isEmpty()) {
        continue; // gone again meanwhile; the next change says so
      }
      Response<StoredMemory> memory = store.get(storeId, id.get());
      switch (memory) {
        case Response.Ok<StoredMemory> ok -> contents.put(key, ok.body().content());
        case Response.NotFound<StoredMemory> gone -> {
          // Deleted since the feed answered; the next change names the delete.
        }
        default -> {
          return PullOutcome.notPulled(memory, repo, "the read of memory " + id.get());
        }
      }
    }
    Map<String, String> deleted = new TreeMap<>(changes.deleted());
    return apply(ledger, contents, deleted, changes.checksum(), OptionalLong.of(changes.version()));
  }

  /**
   * Starts over from the whole store (first sync or reset): the streamed export gives every memory
   * with its id and the version it was read at, so the change feed follows on from there. Nothing
   * is applied unless the export arrived whole. A server without the export (404), or one whose
   * export does not name its version, is read as before: the {@code team_memory} GET, then the
   * listing of ids.
   */
  PullOutcome pullWhole(SyncLedger ledger) {
    String storeId = ledger.storeId().orElseThrow();
    Map<String, String> entries = new TreeMap<>();
    Map<String, String> ids = new TreeMap<>();
    Response<ExportSummary> response =
        client
            .memoryStores()
            .export(
                storeId,
                memory -> {
                  entries.put(memory.key(), memory.content());
                  ids.put(memory.key(), memory.id());
                });
    return switch (response) {
      case Response.Ok<ExportSummary> ok when ok.body().version().isPresent() ->
          startOver(ledger, entries, ids, ok.body().version().getAsLong());
      case Response.Ok<ExportSummary> unversioned -> pullWholeByTeamMemory(ledger);
      case Response.NotFound<ExportSummary> noExport -> pullWholeByTeamMemory(ledger);
      default -> PullOutcome.notPulled(response, repo, "the export");
    };
  }

  /**
   * Applies a whole export. It has no tombstones, so a file this daemon synced that the store no
   * longer has counts as deleted on the server, and goes here too when unchanged since; unless so
   * many are missing at once ({@link PushPlanner#holdsDeletes}) that the store looks emptied or
   * replaced rather than edited: then the files stay and the log says so.
   */
  private PullOutcome startOver(
      SyncLedger ledger, Map<String, String> entries, Map<String, String> ids, long version) {
    Map<String, String> checksums = new TreeMap<>();
    entries.forEach((key, content) -> checksums.put(key, Checksums.ofContent(content)));
    Map<String, String> gone = new TreeMap<>();
    ledger
        .syncedChecksums()
        .forEach(
            (key, checksum) -> {
              if (!entries.containsKey(key)) {
                gone.put(key, checksum);
              }
            });
    if (PushPlanner.holdsDeletes(gone.size(), ledger.syncedChecksums().size())) {
      LOG.warning(
          repo
              + ": the server no longer has "
              + gone.size()
              + " of the "
              + ledger.syncedChecksums().size()
              + " synced files; keeping them here (too many at once to be a teammate's deletes)");
      gone.clear();
    }
    String repositoryChecksum = Checksums.ofRepository(checksums);
    PullOutcome outcome = apply(ledger, entries, gone, repositoryChecksum);
    if (outcome instanceof PullOutcome.Pulled) {
      ledger.memoryIdsAre(ids);
      ledger.versionIs(version, repositoryChecksum);
    }
    return outcome;
  }

  /** The whole repository by the {@code team_memory} GET, then the memory id of every key. */
  private PullOutcome pullWholeByTeamMemory(SyncLedger ledger) {
    Response<RepositorySnapshot> response = client.fetch(repo, Optional.empty());
    if (!(response instanceof Response.Ok<RepositorySnapshot> ok)) {
      return pull(ledger, false);
    }
    PullOutcome outcome =
        apply(ledger, ok.body().content().entries(), ok.body().deletedKeys(), ok.body().checksum());
    if (outcome instanceof PullOutcome.Pulled) {
      Optional<PullOutcome> failed =
          listIds(ledger, client.memoryStores(), ledger.storeId().orElseThrow());
      if (failed.isPresent()) {
        return failed.get();
      }
      ledger.versionIs(ok.body().version(), ok.body().checksum());
    }
    return outcome;
  }

  private Optional<PullOutcome> listIds(
      SyncLedger ledger, MemoryStoreClient store, String storeId) {
    Map<String, String> ids = new TreeMap<>();
    Optional<String> page = Optional.empty();
    do {
      Response<MemoryPage> response = store.list(storeId, page);
      if (!(response instanceof Response.Ok<MemoryPage> ok)) {
        return Optional.of(
            response instanceof Response.TransportFailure<MemoryPage> failure
                ? new PullOutcome.Offline(failure.reason())
                : new PullOutcome.Failed("listing the memory store failed"));
      }
      ok.body().memories().forEach(memory -> ids.put(memory.key(), memory.id()));
      page = ok.body().next();
    } while (page.isPresent());
    ledger.memoryIdsAre(ids);
    return Optional.empty();
  }

  /** Copies the local file of the key to {@code <state>/replaced/<time>/<key>}. */
  private String saveAside(String key, String now) throws IOException {
    Optional<String> content = folder.read(key);
    Path copy = savedCopies.resolve(now.replace(':', '-')).resolve(key);
    if (!copy.normalize().startsWith(savedCopies)) {
      throw new IOException("the key does not fit under " + savedCopies);
    }
    AtomicFiles.write(copy, content.orElse("").getBytes(UTF_8));
    return copy.toString();
  }

  private PullOutcome apply(
      SyncLedger ledger,
      Map<String, String> entries,
      Map<String, String> deletedKeys,
      String repositoryChecksum) {
    return apply(ledger, entries, deletedKeys, repositoryChecksum, OptionalLong.empty());
  }

  /**
   * Applies the server's entries and tombstones. Without {@code version} they are the whole
   * repository; with it they are the keys written after the ledger's version, and every other key
   * stays as the ledger knows it.
   */
  private PullOutcome apply(
      SyncLedger ledger,
      Map<String, String> entries,
      Map<String, String> deletedKeys,
      String repositoryChecksum,
      OptionalLong version) {
    LocalSnapshot local;
    try {
      local = folder.scan();
    } catch (IOException e) {
      return new PullOutcome.Failed("could not read the team folder: " + e.getMessage());
    }
    int written = 0;
    int deleted = 0;
    List<String> conflicts = new ArrayList<>();
    List<String> refusedNow = new ArrayList<>();
    Map<String, String> serverChecksums = new HashMap<>();
    if (version.isEmpty()) {
      ledger.refusalsCleared();
    }
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      String key = entry.getKey();
      String content = entry.getValue();
      String theirs = Checksums.ofContent(content);
      serverChecksums.put(key, theirs);
      if (version.isPresent()) {
        ledger.serverHas(key, theirs);
      }
      Optional<String> refusal = folder.refusal(key);
      if (refusal.isPresent()) {
        ledger.refused(key, refusal.get());
        refusedNow.add(key);
        continue;
      }
      if (content.getBytes(UTF_8).length > TeamFolder.MAX_FILE_BYTES) {
        ledger.refused(key, "larger than " + TeamFolder.MAX_FILE_BYTES + " bytes");
        refusedNow.add(key);
        continue;
      }
      if (local.skipped().containsKey(key)) {
        // A file here the scan could not take (grown past the size limit, unreadable, not a
        // regular file) is the user's until they deal with it: never replaced by a pull. The
        // teammate's version stays on the server; status names the skip.
        continue;
      }
      String mine = local.checksumOf(key);
      String base = ledger.syncedChecksum(key).orElse(null);
      if (theirs.equals(mine)) {
        ledger.agreed(key, theirs);
        continue;
      }
      if (mine == null && theirs.equals(base)) {
        // Deleted here after it synced, and unchanged on the server: a local delete on its way
        // (or held), never undone by a pull.
        continue;
      }
      if (mine != null && base != null && !mine.equals(base)) {
        // Edited here since the last sync: kept and pushed. If the server changed too, the
        // teammate's version stays in the server's history and status names it.
        if (!theirs.equals(base)) {
          ledger.conflict(key, theirs, mine);
          conflicts.add(key);
        }
        continue;
      }
      String savedCopy = null;
      if (mine != null && base == null) {
        // Never synced, so no sign of a local edit: the server wins, as in the reference client,
        // but the local file is saved first so that nothing is lost.
        try {
          savedCopy = saveAside(key, ledger.nowText());
        } catch (IOException e) {
          ledger.failed(
              "could not save the local copy of " + Display.key(key) + " aside: " + e.getMessage());
          continue;
        }
      }
      try {
        // Compare-and-write: the file must still be what the scan saw.
        if (!java.util.Objects.equals(mine, folder.checksumNow(key))) {
          continue;
        }
        Optional<String> writeRefusal = folder.write(key, content);
        if (writeRefusal.isPresent()) {
          ledger.refused(key, writeRefusal.get());
          refusedNow.add(key);
          continue;
        }
      } catch (IOException e) {
        ledger.failed("could not write " + Display.key(key) + ": " + e.getMessage());
        continue;
      }
      ledger.agreed(key, theirs);
      ledger.keptDeletionOver(key);
      if (savedCopy != null) {
        ledger.replaced(key, theirs, mine, savedCopy);
        conflicts.add(key);
      }
      written++;
    }
    for (Map.Entry<String, String> tombstone : deletedKeys.entrySet()) {
      String key = tombstone.getKey();
      if (entries.containsKey(key) || folder.refusal(key).isPresent()) {
        continue;
      }
      if (version.isPresent()) {
        ledger.serverLacks(key);
      }
      String mine = local.checksumOf(key);
      String base = ledger.forgetSynced(key).orElse(null);
      ledger.notMissing(key);
      if (mine == null) {
        ledger.keptDeletionOver(key);
        continue;
      }
      if (mine.equals(tombstone.getValue()) || mine.equals(base)) {
        try {
          if (folder.deleteIfUnchanged(key, mine)) {
            deleted++;
            ledger.keptDeletionOver(key);
            LOG.info(ledger.repo() + ": deleted " + Display.key(key) + " (deleted on the server)");
            continue;
          }
        } catch (IOException e) {
          ledger.failed("could not delete " + Display.key(key) + ": " + e.getMessage());
        }
      }
      SyncState.KeptDeletion kept = ledger.keptDeletion(key).orElse(null);
      if (kept == null || !kept.localChecksum().equals(mine)) {
        ledger.keptDeletion(
            key, new SyncState.KeptDeletion(tombstone.getValue(), mine, ledger.nowText()));
        LOG.warning(
            ledger.repo()
                + ": "
                + Display.key(key)
                + " was deleted on the server but is modified here; kept (an edit pushes it again)");
      }
    }
    if (version.isPresent()) {
      ledger.versionIs(version.getAsLong(), repositoryChecksum);
    } else {
      ledger.serverHolds(serverChecksums, repositoryChecksum);
    }
    ledger.pulled();
    return new PullOutcome.Pulled(written, deleted, conflicts, refusedNow);
  }
}
