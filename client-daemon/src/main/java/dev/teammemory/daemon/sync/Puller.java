package dev.teammemory.daemon.sync;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
      case Response.Unauthorized<RepositorySnapshot> unauthorized ->
          new PullOutcome.NoAccess(Failures.unauthorized());
      case Response.Rejected<RepositorySnapshot> rejected ->
          rejected.status() == 403
              ? new PullOutcome.NoAccess(Failures.forbidden(repo, "read"))
              : new PullOutcome.Failed(
                  "the server refused the pull: "
                      + Failures.describe(rejected.status(), rejected.error()));
      case Response.TransportFailure<RepositorySnapshot> failure ->
          new PullOutcome.Offline(failure.reason());
      case Response.Conflict<RepositorySnapshot> conflict ->
          new PullOutcome.Failed("the server answered a pull with 412");
      case Response.TooManyEntries<RepositorySnapshot> tooMany ->
          new PullOutcome.Failed("the server answered a pull with 413");
    };
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
    ledger.refusalsCleared();
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      String key = entry.getKey();
      String content = entry.getValue();
      String theirs = Checksums.ofContent(content);
      serverChecksums.put(key, theirs);
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
      String mine = local.checksumOf(key);
      String base = ledger.syncedChecksum(key).orElse(null);
      if (theirs.equals(mine)) {
        ledger.agreed(key, theirs);
        continue;
      }
      if (mine == null && theirs.equals(base) && !local.skipped().containsKey(key)) {
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
    ledger.serverHolds(serverChecksums, repositoryChecksum);
    ledger.pulled();
    return new PullOutcome.Pulled(written, deleted, conflicts, refusedNow);
  }
}
