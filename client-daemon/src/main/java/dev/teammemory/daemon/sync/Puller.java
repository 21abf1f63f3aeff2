package dev.teammemory.daemon.sync;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.protocol.AuthConfig;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.MemoryStoreLocation;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.protocol.client.MemoryStoreClient;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.protocol.store.ExportSummary;
import dev.teammemory.protocol.store.MemoryPage;
import dev.teammemory.protocol.store.StoreRef;
import dev.teammemory.protocol.store.StoredMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Brings the server's state into the team folder. Server wins per key, except a key edited locally
 * since the last sync, which is kept (and pushed, reported as a conflict when the server changed it
 * too). Identical files are not rewritten; local files the server lacks stay.
 */
final class Puller {

  private static final Logger LOG = Logger.getLogger(Puller.class.getName());

  /** The most history reads one pull spends on learning authors; more keys wait for a change. */
  static final int MAX_AUTHOR_READS = 50;

  private final String repo;
  private final TeamMemoryClient client;
  private final TeamFolder folder;
  private final KeptCopies keptCopies;
  private final Path stateDir;
  private TeamAuthors authors;

  Puller(
      String repo,
      TeamMemoryClient client,
      TeamFolder folder,
      KeptCopies keptCopies,
      Path stateDir) {
    this.repo = repo;
    this.client = client;
    this.folder = folder;
    this.keptCopies = keptCopies;
    this.stateDir = stateDir;
    this.authors = TeamAuthors.load(stateDir, folder.root());
  }

  /**
   * Decides the transport: when the server serves the Memory Stores API, the repository's store,
   * created if it has none yet (which needs push access; a reader keeps {@code team_memory}). Files
   * then sync one by one. A store that differs from the one the ledger knew is noted by the ledger
   * ({@link SyncLedger#storeIs}); the next whole read decides whether the server forgot.
   */
  void learnStore(SyncLedger ledger) {
    // A server that offers GitHub login says whether it serves the API; one with static tokens
    // only answers 404 here, and the store lookup below decides.
    if (client.authConfig() instanceof Response.Ok<AuthConfig> config
        && config.body().memoryStoresPath().isEmpty()) {
      ledger.storeIs(Optional.empty());
      return;
    }
    Optional<String> before = ledger.storeId();
    switch (client.memoryStore(repo)) {
      case Response.Ok<MemoryStoreLocation> ok -> ledger.storeIs(Optional.of(ok.body().path()));
      case Response.NotFound<MemoryStoreLocation> none -> {
        if (client.memoryStores().createStore(repo) instanceof Response.Ok<StoreRef> made) {
          ledger.storeIs(Optional.of("/v1/memory_stores/" + made.body().id()));
        } else {
          ledger.storeIs(Optional.empty());
        }
      }
      default -> {
        // Unknown for now (offline, no access): keep what we knew.
      }
    }
    if (!ledger.storeId().equals(before)) {
      ledger
          .storeId()
          .ifPresent(id -> LOG.info(repo + ": syncing file by file through memory store " + id));
    }
  }

  PullOutcome pull(SyncLedger ledger, boolean onlyIfChanged) {
    Response<RepositorySnapshot> response =
        client.fetch(
            repo, onlyIfChanged ? Optional.of(ledger.repositoryChecksum()) : Optional.empty());
    return switch (response) {
      case Response.Ok<RepositorySnapshot> ok -> applyWithAuthors(ledger, ok.body());
      case Response.NotModified<RepositorySnapshot> notModified -> new PullOutcome.Unchanged();
      // A 404 on a read means a repository nobody wrote yet: empty. When this daemon has synced
      // files with it, that is the server's word that it forgot the repository.
      case Response.NotFound<RepositorySnapshot> notFound -> {
        if (!ledger.syncedChecksums().isEmpty()
            && !ledger.repositoryChecksum().equals(Checksums.EMPTY)) {
          ledger.serverForgot("it answers that the repository was never written");
        }
        yield apply(ledger, Map.of(), Map.of(), Checksums.EMPTY);
      }
      default -> PullOutcome.notPulled(response, repo, "the pull", client);
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
    Map<String, TeamAuthors.Learned> learned = new TreeMap<>();
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
        case Response.Ok<StoredMemory> ok -> {
          contents.put(key, ok.body().content());
          learnedFrom(ok.body(), changes.authorOf(key), learned);
        }
        case Response.NotFound<StoredMemory> gone -> {
          // Deleted since the feed answered; the next change names the delete.
        }
        default -> {
          return PullOutcome.notPulled(memory, repo, "the read of memory " + id.get(), client);
        }
      }
    }
    Map<String, String> deleted = new TreeMap<>(changes.deleted());
    PullOutcome outcome =
        apply(ledger, contents, deleted, changes.checksum(), OptionalLong.of(changes.version()));
    if (outcome instanceof PullOutcome.Pulled) {
      authorsLearned(learned, Optional.empty());
    }
    return outcome;
  }

  /**
   * Starts over from the whole store (first sync or reset): the streamed export gives every memory
   * with its id and the version it was read at, so the change feed follows on from there. Nothing
   * is applied unless the export arrived whole. A server without the export (404), or one whose
   * export does not name its version, is read as before: the {@code team_memory} GET, then the
   * listing of ids.
   */
  PullOutcome pullWhole(SyncLedger ledger) {
    return pullWhole(ledger, true);
  }

  /**
   * {@code lookUpOn404}: a {@code 404} on the export asks the store lookup whether the store is
   * still the one the ledger knows (once: the read of a store just learned never asks again).
   */
  private PullOutcome pullWhole(SyncLedger ledger, boolean lookUpOn404) {
    String storeId = ledger.storeId().orElseThrow();
    Map<String, String> entries = new TreeMap<>();
    Map<String, String> ids = new TreeMap<>();
    Map<String, TeamAuthors.Learned> learned = new TreeMap<>();
    Response<ExportSummary> response =
        client
            .memoryStores()
            .export(
                storeId,
                memory -> {
                  entries.put(memory.key(), memory.content());
                  ids.put(memory.key(), memory.id());
                  learnedFrom(memory, Optional.empty(), learned);
                });
    return switch (response) {
      case Response.Ok<ExportSummary> ok when ok.body().version().isPresent() -> {
        PullOutcome outcome = startOver(ledger, entries, ids, ok.body().version().getAsLong());
        if (outcome instanceof PullOutcome.Pulled) {
          authorsLearned(learned, Optional.of(entries.keySet()));
        }
        yield outcome;
      }
      case Response.Ok<ExportSummary> unversioned -> pullWholeByTeamMemory(ledger);
      case Response.NotFound<ExportSummary> noExport when lookUpOn404 -> {
        // Either a server without the export, or a store it no longer knows (a new install, a
        // restore): the store lookup decides.
        learnStore(ledger);
        if (ledger.storeId().equals(Optional.of(storeId))) {
          yield pullWholeByTeamMemory(ledger);
        }
        LOG.info(repo + ": the server no longer knows memory store " + storeId + "; reading anew");
        yield ledger.storeId().isEmpty() ? pull(ledger, false) : pullWhole(ledger, false);
      }
      case Response.NotFound<ExportSummary> noExport -> pullWholeByTeamMemory(ledger);
      default -> PullOutcome.notPulled(response, repo, "the export", client);
    };
  }

  /**
   * Applies a whole export. Absence is no evidence: the export has no tombstones, so a file this
   * daemon synced that the store lacks goes here too only when the server holds a tombstone for it
   * (a teammate deleted it), and the mass-delete hold applies ({@link PushPlanner#holdsDeletes}). A
   * read that shows the server forgot ({@link SyncLedger#weighWholeRead}) deletes nothing and puts
   * this folder back.
   */
  private PullOutcome startOver(
      SyncLedger ledger, Map<String, String> entries, Map<String, String> ids, long version) {
    Map<String, String> checksums = new TreeMap<>();
    entries.forEach((key, content) -> checksums.put(key, Checksums.ofContent(content)));
    String repositoryChecksum = Checksums.ofRepository(checksums);
    boolean forgot = ledger.weighWholeRead(version, repositoryChecksum);
    Map<String, String> tombstones = new TreeMap<>();
    if (!forgot) {
      List<String> absent = new ArrayList<>();
      ledger
          .syncedChecksums()
          .forEach(
              (key, checksum) -> {
                if (!entries.containsKey(key)) {
                  absent.add(key);
                }
              });
      if (!absent.isEmpty()) {
        Optional<Map<String, String>> deleted = tombstones();
        if (deleted.isEmpty()) {
          return new PullOutcome.Offline("could not read the server's deleted keys");
        }
        absent.stream()
            .filter(deleted.get()::containsKey)
            .forEach(key -> tombstones.put(key, deleted.get().get(key)));
      }
      if (PushPlanner.holdsDeletes(tombstones.size(), ledger.syncedChecksums().size())) {
        LOG.warning(
            repo
                + ": the server deleted "
                + tombstones.size()
                + " of the "
                + ledger.syncedChecksums().size()
                + " synced files; keeping them here (too many at once): delete them here if"
                + " that was meant");
        tombstones.clear();
      }
    }
    PullOutcome outcome = apply(ledger, entries, tombstones, repositoryChecksum);
    if (outcome instanceof PullOutcome.Pulled) {
      ledger.memoryIdsAre(ids);
      ledger.versionIs(version, repositoryChecksum);
    }
    return outcome;
  }

  /** The server's tombstones ({@code deletedKeys} of the hashes view); empty when unreadable. */
  private Optional<Map<String, String>> tombstones() {
    return switch (client.fetchHashes(repo)) {
      case Response.Ok<HashesView> ok -> Optional.of(ok.body().deletedKeys());
      case Response.NotFound<HashesView> never -> Optional.of(Map.of());
      default -> Optional.empty();
    };
  }

  /** The whole repository by the {@code team_memory} GET, then the memory id of every key. */
  private PullOutcome pullWholeByTeamMemory(SyncLedger ledger) {
    Response<RepositorySnapshot> response = client.fetch(repo, Optional.empty());
    if (!(response instanceof Response.Ok<RepositorySnapshot> ok)) {
      return pull(ledger, false);
    }
    PullOutcome outcome = applyWithAuthors(ledger, ok.body());
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
                ? new PullOutcome.Offline(failure.reason(), failure.retryAfter())
                : new PullOutcome.Failed("listing the memory store failed"));
      }
      ok.body().memories().forEach(memory -> ids.put(memory.key(), memory.id()));
      page = ok.body().next();
    } while (page.isPresent());
    ledger.memoryIdsAre(ids);
    return Optional.empty();
  }

  /**
   * Applies a whole {@code team_memory} read, whose entries name no authors: the author of each key
   * whose version is new to this daemon is the newest version of its history (one read per such
   * key, at most {@link #MAX_AUTHOR_READS} a pull; an unchanged key is never read).
   */
  private PullOutcome applyWithAuthors(SyncLedger ledger, RepositorySnapshot snapshot) {
    Map<String, String> entries = snapshot.content().entries();
    Map<String, TeamAuthors.Learned> learned = new TreeMap<>();
    int reads = 0;
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      String key = entry.getKey();
      String theirs = Checksums.ofContent(entry.getValue());
      TeamAuthors.Learned known = authors.byKey().get(key);
      if (ledger.serverChecksum(key).filter(theirs::equals).isPresent()
          || (known != null && known.checksum().equals(theirs))) {
        continue;
      }
      if (reads++ == MAX_AUTHOR_READS) {
        break;
      }
      if (client.history(repo, key) instanceof Response.Ok<EntryHistory> history) {
        history.body().versions().stream()
            .findFirst()
            .filter(newest -> !newest.deleted() && newest.checksum().equals(theirs))
            .flatMap(
                newest -> TeamAuthors.Learned.of(newest.author(), Optional.of(newest.at()), theirs))
            .ifPresent(author -> learned.put(key, author));
      }
    }
    PullOutcome outcome = apply(ledger, entries, snapshot.deletedKeys(), snapshot.checksum());
    if (outcome instanceof PullOutcome.Pulled) {
      authorsLearned(learned, Optional.of(entries.keySet()));
    }
    return outcome;
  }

  /** What a memory read through the Memory Stores API says of its author. */
  private static void learnedFrom(
      StoredMemory memory, Optional<String> feedAuthor, Map<String, TeamAuthors.Learned> learned) {
    memory
        .author()
        .or(() -> feedAuthor)
        .flatMap(author -> TeamAuthors.Learned.of(author, memory.writtenAt(), memory.checksum()))
        .ifPresent(author -> learned.put(memory.key(), author));
  }

  /**
   * Keeps what a pull learned of authors in the project's state, for the hooks and MCP.
   *
   * @param serverKeys every key the server holds, after a whole read; empty after a read of changes
   */
  private void authorsLearned(
      Map<String, TeamAuthors.Learned> learned, Optional<Set<String>> serverKeys) {
    TeamAuthors updated = authors.with(learned);
    if (serverKeys.isPresent()) {
      updated = updated.onlyFor(serverKeys.get());
    }
    if (updated.equals(authors)) {
      return;
    }
    try {
      updated.save(stateDir);
      authors = updated;
    } catch (IOException notSaved) {
      // Attribution is missing until the next pull, never wrong: the sync itself went through.
      LOG.warning(
          repo + ": could not keep the authors of the pulled files: " + notSaved.getMessage());
    }
  }

  /**
   * Keeps the local file of the key, its exact bytes, under {@code <state>/replaced/<when>/<key>}
   * before the server's version replaces it or the server's delete removes it. Returns the copy.
   */
  private String saveAside(String key, String when) throws IOException {
    Optional<byte[]> bytes = folder.bytes(key);
    if (bytes.isEmpty()) {
      throw new IOException("it can no longer be read");
    }
    return keptCopies.keep(key, bytes.get(), when).toString();
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
    // Every copy this pull keeps goes into one folder: the sync `tmem team restore --sync` names.
    String when = ledger.nowText();
    List<String> conflicts = new ArrayList<>();
    List<String> refusedNow = new ArrayList<>();
    Map<String, String> serverChecksums = new HashMap<>();
    if (version.isEmpty()) {
      ledger.refusalsCleared();
    }
    Set<String> known = new HashSet<>(local.files().keySet());
    known.addAll(local.skipped().keySet());
    known.addAll(ledger.syncedChecksums().keySet());
    Map<String, String> sameFile = SameFileKeys.clashes(entries.keySet(), known);
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      String key = entry.getKey();
      String content = entry.getValue();
      String theirs = Checksums.ofContent(content);
      serverChecksums.put(key, theirs);
      if (version.isPresent()) {
        ledger.serverHas(key, theirs);
      }
      Optional<String> refusal =
          Optional.ofNullable(sameFile.get(key)).or(() -> folder.refusal(key));
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
      if (ledger.reconciling() && ledger.wentBack() && mine != null) {
        // The server went back to a backup and holds an older copy: the one here is what this
        // daemon last synced or a later edit, so it goes back up over the server's, which stays
        // in the server's history, named as a conflict. (After a replacement by an empty
        // server, what it holds was sent since by a teammate's daemon: the usual rules apply.)
        ledger.forgetSynced(key);
        ledger.conflict(key, theirs, mine);
        conflicts.add(key);
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
      if (mine != null) {
        // Never synced (no sign of a local edit: the server wins, as in the reference client), or
        // unchanged since it synced: either way the local file is kept first, so that whatever
        // the server sends, nothing here is lost.
        try {
          savedCopy = saveAside(key, when);
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
      if (savedCopy != null && base == null) {
        ledger.replaced(key, theirs, mine, savedCopy);
        conflicts.add(key);
      }
      written++;
    }
    if (ledger.reconciling()) {
      // The server's tombstones and absences predate what this daemon synced: none is a delete.
      // Every file here the server lacks goes back up (a create: it must not exist).
      for (String key : List.copyOf(ledger.syncedChecksums().keySet())) {
        if (!entries.containsKey(key)) {
          ledger.resend(key);
          ledger.notMissing(key);
        }
      }
      deletedKeys = Map.of();
      LOG.warning(ledger.repo() + ": " + ledger.serverForgotNote().orElse("the server forgot"));
      ledger.reconciled();
    }
    for (Map.Entry<String, String> tombstone : deletedKeys.entrySet()) {
      String key = tombstone.getKey();
      if (entries.containsKey(key)
          || sameFile.containsKey(key)
          || folder.refusal(key).isPresent()) {
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
          saveAside(key, when);
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
