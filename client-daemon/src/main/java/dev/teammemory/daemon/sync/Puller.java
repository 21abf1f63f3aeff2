package dev.teammemory.daemon.sync;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.protocol.Checksums;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Brings what a {@link Transport} read from the server into the team folder. Server wins per key,
 * except a key edited locally since the last sync, which is kept (and pushed, reported as a
 * conflict when the server changed it too). Identical files are not rewritten; local files the
 * server lacks stay. Once a pull is applied, who wrote the files it brought (as its transport
 * learned it) is kept in the project's state ({@link TeamAuthors}) for the hooks and MCP.
 */
final class Puller {

  private static final Logger LOG = Logger.getLogger(Puller.class.getName());

  /**
   * When the server wrote a key's current content, by its own history (empty when unknown): the
   * restore reconcile weighs it against the local file's time.
   */
  interface ServerHistory {
    Optional<Instant> writtenAt(String key, String checksum);
  }

  private final TeamFolder folder;
  private final KeptCopies keptCopies;
  private final Path stateDir;
  private final ServerHistory history;
  private TeamAuthors authors;

  Puller(TeamFolder folder, KeptCopies keptCopies, Path stateDir, ServerHistory history) {
    this.folder = folder;
    this.keptCopies = keptCopies;
    this.stateDir = stateDir;
    this.history = history;
    this.authors = TeamAuthors.load(stateDir, folder.root());
  }

  /** Who wrote the pulled files, as far as this daemon learned: a transport reads no key twice. */
  TeamAuthors authors() {
    return authors;
  }

  /**
   * After the repository went back, whether the server's copy of a file pulled here is newer than
   * the one here: a teammate's daemon wrote it after the restore (its author's copy, or its edit).
   * The backup's copies were written before this daemon pulled the one it holds, so they are older.
   * Unknown counts as older: the copy here goes back up, and the server's stays in its history.
   */
  private boolean serverCopyIsNewer(String key, String theirs) {
    try {
      Optional<Instant> here = folder.modifiedAt(key);
      Optional<Instant> there = history.writtenAt(key, theirs);
      return here.isPresent() && there.isPresent() && there.get().isAfter(here.get());
    } catch (IOException e) {
      return false;
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

  /**
   * Applies the whole repository from a read that names no authors (a repository nobody wrote): the
   * authors kept stay as they are.
   */
  PullOutcome apply(
      SyncLedger ledger,
      Map<String, String> entries,
      Map<String, String> deletedKeys,
      String repositoryChecksum) {
    return applyToFolder(ledger, entries, deletedKeys, repositoryChecksum, OptionalLong.empty());
  }

  /**
   * Applies the server's entries and tombstones, then keeps {@code learned}, who wrote the files
   * they bring, when the pull went through. Without {@code version} they are the whole repository
   * (and the authors of keys it no longer holds are dropped); with it they are the keys written
   * after the ledger's version, and every other key stays as the ledger knows it.
   */
  PullOutcome apply(
      SyncLedger ledger,
      Map<String, String> entries,
      Map<String, String> deletedKeys,
      String repositoryChecksum,
      OptionalLong version,
      Map<String, TeamAuthors.Learned> learned) {
    PullOutcome outcome = applyToFolder(ledger, entries, deletedKeys, repositoryChecksum, version);
    if (outcome instanceof PullOutcome.Pulled) {
      authorsLearned(
          ledger.repo(),
          learned,
          version.isEmpty() ? Optional.of(entries.keySet()) : Optional.empty());
    }
    return outcome;
  }

  private PullOutcome applyToFolder(
      SyncLedger ledger,
      Map<String, String> entries,
      Map<String, String> deletedKeys,
      String repositoryChecksum,
      OptionalLong version) {
    LocalSnapshot local;
    try {
      // Nothing to apply (the feed naming only this daemon's own writes): the folder is not read.
      local =
          entries.isEmpty() && deletedKeys.isEmpty()
              ? new LocalSnapshot(Map.of(), Map.of())
              : folder.scan();
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
      Optional<String> synced = ledger.syncedChecksum(key);
      // A key sent again after the server forgot keeps what was synced as its base until the new
      // server acknowledges it: an edit made here meanwhile stays an edit, never taken for a file
      // that was never synced (which the server's copy, perhaps a teammate's older one, replaces).
      String base = synced.or(() -> ledger.resentBase(key)).orElse(null);
      if (theirs.equals(mine)) {
        ledger.agreed(key, theirs);
        continue;
      }
      // A copy pulled here (not this daemon's own write) may be older than a teammate's: it
      // yields to a copy the server got after the restore.
      boolean pulledCopy = mine != null && mine.equals(base) && !ledger.authoredHere(key);
      if (ledger.reconciling()
          && ledger.wentBack()
          && mine != null
          && !(pulledCopy && serverCopyIsNewer(key, theirs))) {
        // The server went back to a backup and holds an older copy: the one here is what this
        // daemon last synced or a later edit, so it goes back up over the server's, which stays
        // in the server's history, named as a conflict. (After a replacement by an empty
        // server, or where a teammate's daemon wrote a newer copy since the restore, the usual
        // rules apply: the server's replaces the one here, which is kept first.)
        if (pulledCopy) {
          // Pulled here, unchanged since: should a teammate's daemon put a copy up first (its
          // edit, or the author's), that one stands (StoreTransport's 409 path). An edit here or
          // this daemon's own write goes over what the server holds.
          ledger.resend(key);
        } else {
          ledger.forgetSynced(key);
        }
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
      if (savedCopy != null && synced.isEmpty()) {
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

  /**
   * Keeps what a pull learned of authors in the project's state, for the hooks and MCP.
   *
   * @param serverKeys every key the server holds, after a whole read; empty after a read of changes
   */
  private void authorsLearned(
      String repo, Map<String, TeamAuthors.Learned> learned, Optional<Set<String>> serverKeys) {
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
}
