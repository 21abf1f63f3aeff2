package dev.teammemory.daemon.sync;

import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.secrets.Verdict;
import dev.teammemory.protocol.BatchPlanner;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.PutResponse;
import dev.teammemory.protocol.client.MemoryStoreClient;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.protocol.store.MemoryPage;
import dev.teammemory.protocol.store.MemoryPathRules;
import dev.teammemory.protocol.store.StoredMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * Sends the local changes: the keys whose checksum differs both from the last known server checksum
 * and from the last synced one, minus files that are too large, links, flagged by the secret
 * scanner, or over the learned entry cap; packed by {@link BatchPlanner}, each batch chained on the
 * previous response's checksum. A {@code 412} refreshes the server's checksums with the hashes
 * probe and retries from the same local snapshot, at most twice.
 */
final class Pusher {

  private static final Logger LOG = Logger.getLogger(Pusher.class.getName());
  static final int MAX_PRECONDITION_RETRIES = 2;
  private static final int MAX_CAP_RETRIES = 2;

  private final String repo;
  private final TeamMemoryClient client;
  private final TeamFolder folder;
  private final SecretGuard guard;

  Pusher(String repo, TeamMemoryClient client, TeamFolder folder, SecretGuard guard) {
    this.repo = repo;
    this.client = client;
    this.folder = folder;
    this.guard = guard;
  }

  /**
   * Pushes what changed: plans from one scan ({@link PushPlanner}), reads and checks the changed
   * files, sends them, then sends the deletes that are due. {@code save} saves the ledger; it runs
   * every {@value Checkpoint#EVERY_FILES} acknowledged files ({@link Checkpoint}), and the engine
   * saves when the push ends.
   */
  PushOutcome push(SyncLedger ledger, Duration deleteDelay, Runnable save) {
    Checkpoint checkpoint = new Checkpoint(save);
    LocalSnapshot snapshot;
    boolean folderExists = Files.isDirectory(folder.root());
    try {
      snapshot = folderExists ? folder.scan() : new LocalSnapshot(Map.of(), Map.of());
    } catch (IOException e) {
      return new PushOutcome.Rejected("could not read the team folder: " + e.getMessage());
    }
    PushPlan plan = PushPlanner.plan(snapshot, folderExists, ledger, ledger.now(), deleteDelay);
    Map<String, SyncState.Skip> skips = new TreeMap<>(plan.skips());
    Map<String, String> delta = new TreeMap<>();
    Map<String, String> checksums = new HashMap<>();
    for (String key : plan.changed()) {
      Optional<String> content;
      try {
        content = folder.read(key);
      } catch (IOException e) {
        skips.put(key, new SyncState.Skip(SkipReason.UNREADABLE, FailureWords.describe(e), null));
        continue;
      }
      if (content.isEmpty()) {
        continue; // deleted since the scan: the next scan sees it missing
      }
      String checksum = Checksums.ofContent(content.get());
      if (!ledger.changedHere(key, checksum)) {
        continue;
      }
      if (guard.check(key, content.get()) instanceof Verdict.Flagged flagged) {
        skips.put(key, new SyncState.Skip(SkipReason.SECRET, flagged.summary(), checksum));
        // A key that holds the secret is logged masked: a log line never carries one.
        LOG.warning(
            repo
                + ": not sending "
                + Display.key(flagged.inPath() ? guard.redact(key) : key)
                + ": it contains a secret ("
                + flagged.summary()
                + ")");
        continue;
      }
      delta.put(key, content.get());
      checksums.put(key, checksum);
    }
    sayNewSkips(ledger, skips);
    ledger.skipsAre(skips);
    noteMissing(ledger, plan);
    applyCap(ledger, delta, checksums);
    ledger.pendingAre(delta.keySet());

    PushOutcome sent =
        delta.isEmpty()
            ? new PushOutcome.NothingToPush()
            : ledger.storeId().isPresent()
                ? sendPerFile(ledger, ledger.storeId().get(), delta, checksums, checkpoint)
                : send(ledger, delta, checksums, checkpoint);
    if (!(sent instanceof PushOutcome.Pushed) && !(sent instanceof PushOutcome.NothingToPush)) {
      return sent;
    }
    Optional<PushOutcome> failedDelete = deleteDue(ledger, plan.deletes(), checkpoint);
    if (failedDelete.isPresent()) {
      return failedDelete.get();
    }
    return sent;
  }

  /**
   * Logs each skip the scan found that the last push did not (a secret is logged where it is
   * found), so that the log names a refused file once, as {@code tmem status} does while it lasts.
   */
  private void sayNewSkips(SyncLedger ledger, Map<String, SyncState.Skip> skips) {
    skips.forEach(
        (key, skip) -> {
          if (skip.reason() != SkipReason.SECRET
              && !ledger.skip(key).map(SyncState.Skip::reason).equals(Optional.of(skip.reason()))) {
            LOG.warning(repo + ": not sending " + Display.key(key) + ": " + skip.inWords());
          }
        });
  }

  /** Remembers which synced files are missing and whether deletes are held, and says so once. */
  private void noteMissing(SyncLedger ledger, PushPlan plan) {
    ledger.stillMissing(plan.missing());
    plan.missing().forEach(ledger::missing);
    if (plan.hold().isPresent()) {
      boolean alreadyHeld = ledger.deleteHold().filter(hold -> !hold.released()).isPresent();
      boolean holds = !ledger.holdReleasedFor(plan.missing());
      if (holds) {
        // Unconfirmed, or more files vanished since the confirmation: held (again) as a whole.
        ledger.hold(plan.hold().get(), List.copyOf(plan.missing()));
      }
      if (holds && !alreadyHeld) {
        LOG.warning(
            repo
                + ": holding "
                + plan.missing().size()
                + " delete(s): "
                + plan.hold().get()
                + "; run `tmem team confirm-deletes` to delete them on the server");
      }
    } else if (plan.missing().isEmpty()) {
      ledger.holdOver();
    }
  }

  /** Sends the due deletes one by one; empty unless one failed in a way that stops the push. */
  private Optional<PushOutcome> deleteDue(
      SyncLedger ledger, List<PushPlan.Delete> deletes, Checkpoint checkpoint) {
    for (PushPlan.Delete delete : deletes) {
      Response<?> response =
          ledger.storeId().isPresent() && ledger.memoryId(delete.key()).isPresent()
              ? client
                  .memoryStores()
                  .delete(
                      ledger.storeId().get(),
                      ledger.memoryId(delete.key()).get(),
                      StoredMemory.sha256Of(delete.expectedChecksum()))
              : client.deleteExpecting(repo, delete.key(), delete.expectedChecksum());
      switch (response) {
        case Response.Ok<?> ok -> {
          ledger.deleted(delete.key());
          LOG.info(repo + ": deleted " + Display.key(delete.key()) + " on the server");
        }
        case Response.NotFound<?> gone -> ledger.deleted(delete.key());
        case Response.Conflict<?> changed -> {
          // A teammate changed it since we synced: their edit wins and the next pull brings it
          // back.
          ledger.notMissing(delete.key());
          ledger.wantPull();
          LOG.warning(
              repo
                  + ": not deleting "
                  + Display.key(delete.key())
                  + ": a teammate changed it on the server; fetching their version");
        }
        case Response.Unauthorized<?> unauthorized -> {
          return Optional.of(new PushOutcome.NoAccess(Failures.unauthorized()));
        }
        case Response.TransportFailure<?> failure -> {
          return Optional.of(PushOutcome.Offline.of(failure));
        }
        case Response.Rejected<?> rejected -> {
          if (rejected.status() == 403) {
            return Optional.of(new PushOutcome.NoAccess(Failures.forbidden(repo, "write", client)));
          }
          ledger.notMissing(delete.key());
          ledger.failed(
              "the server refused to delete "
                  + Display.key(delete.key())
                  + ": "
                  + Failures.describe(rejected.status(), rejected.error()));
        }
        case Response.NotModified<?> notModified ->
            ledger.failed("the server answered a delete with 304");
        case Response.TooManyEntries<?> tooMany ->
            ledger.failed("the server answered a delete with 413");
      }
      ledger.wantPull();
      checkpoint.acknowledged(1);
    }
    return Optional.empty();
  }

  /**
   * Sends each file as its own request on the Memory Stores API: a create that must not find the
   * path taken, or an update that must find the content last seen. A {@code 409} is a conflict on
   * that file alone: the teammate's version is read, recorded, and replaced once more with ours (it
   * stays in the server's history, as on {@code team_memory}). A file the API would refuse though
   * {@code team_memory} takes it (over 102,400 bytes, deeper than 20 segments, a name with a format
   * character or not in NFC: {@link MemoryPathRules}) goes in one {@code team_memory} PUT instead.
   */
  private PushOutcome sendPerFile(
      SyncLedger ledger,
      String storeId,
      Map<String, String> delta,
      Map<String, String> checksums,
      Checkpoint checkpoint) {
    MemoryStoreClient store = client.memoryStores();
    Map<String, String> byTeamMemory = new TreeMap<>();
    List<String> conflicts = new ArrayList<>();
    int sent = 0;
    for (Map.Entry<String, String> file : delta.entrySet()) {
      String key = file.getKey();
      String content = file.getValue();
      if (!MemoryPathRules.accepts(key, content)) {
        byTeamMemory.put(key, content);
        continue;
      }
      FileResult result = sendOne(ledger, store, storeId, key, content, checksums.get(key));
      switch (result) {
        case FileResult.Written written -> {
          sent++;
          if (written.overTheirs()) {
            conflicts.add(key);
          }
          checkpoint.acknowledged(1);
        }
        case FileResult.Skipped skipped -> ledger.skipped(key, skipped.skip());
        case FileResult.Theirs theirs -> ledger.wantPull();
        case FileResult.Stopped stopped -> {
          return stopped.outcome();
        }
      }
    }
    if (!byTeamMemory.isEmpty()) {
      switch (send(ledger, byTeamMemory, checksums, checkpoint)) {
        case PushOutcome.Pushed pushed -> {
          sent += pushed.keys();
          conflicts.addAll(pushed.conflicts());
        }
        case PushOutcome.NothingToPush nothing -> {}
        // What went file by file is acknowledged already; the rest waits for the retry (or the
        // user) that this outcome calls for.
        case PushOutcome failed -> {
          return failed;
        }
      }
    }
    if (sent == 0) {
      return new PushOutcome.NothingToPush();
    }
    findTheirVersions(ledger, new TreeSet<>(delta.keySet()));
    ledger.pushed();
    return new PushOutcome.Pushed(sent, sent, conflicts);
  }

  /** What sending one file came to. */
  private sealed interface FileResult {
    /** On the server; {@code overTheirs} when a teammate's version was replaced (a conflict). */
    record Written(boolean overTheirs) implements FileResult {}

    /** Refused for this content (a secret, a bad path): not sent again until edited. */
    record Skipped(SyncState.Skip skip) implements FileResult {}

    /** The server's version stands (this one is older); the pull brings it, keeping this one. */
    record Theirs() implements FileResult {}

    /** The push stops (offline, no access); the outcome says why. */
    record Stopped(PushOutcome outcome) implements FileResult {}
  }

  private FileResult sendOne(
      SyncLedger ledger,
      MemoryStoreClient store,
      String storeId,
      String key,
      String content,
      String checksum) {
    Optional<String> id = ledger.memoryId(key);
    Optional<String> lastSeen = ledger.serverChecksum(key);
    Response<StoredMemory> response =
        id.isPresent() && lastSeen.isPresent()
            ? store.update(storeId, id.get(), content, StoredMemory.sha256Of(lastSeen.get()))
            : store.create(storeId, key, content);
    boolean overTheirs = false;
    if (response instanceof Response.Conflict<StoredMemory>) {
      // Someone wrote this file since we last saw it: read theirs, keep it in the record and the
      // history, and write ours over it once.
      Optional<StoredMemory> theirs = current(store, storeId, key, id);
      if (theirs.isEmpty() && id.isEmpty()) {
        // No memory at this path, yet its create conflicted: another memory's path is in the way
        // (a file where this one needs a folder, or the reverse). Only this file waits.
        ledger.wantPull();
        return new FileResult.Skipped(
            new SyncState.Skip(
                SkipReason.REJECTED,
                "another memory on the server is in the way of this path (a file where a folder"
                    + " is needed, or the reverse)",
                checksum));
      }
      if (theirs.isEmpty()) {
        ledger.wantPull();
        return new FileResult.Stopped(
            new PushOutcome.Conflict(Display.key(key) + " changed on the server; retrying later"));
      }
      ledger.memoryIs(key, theirs.get().id());
      ledger.serverHas(key, theirs.get().checksum());
      if (theirs.get().checksum().equals(checksum)) {
        ledger.acknowledged(key, checksum, checksum);
        return new FileResult.Written(false);
      }
      if (ledger.resentUnchanged(key, checksum)) {
        // Sent again after the server forgot, unchanged here since this daemon last synced it,
        // and a teammate's daemon sent its version first: that one is as new or newer, so it
        // stands, and the pull writes it here after keeping this copy.
        return new FileResult.Theirs();
      }
      if (!ledger.syncedChecksum(key).equals(Optional.of(theirs.get().checksum()))) {
        ledger.conflict(key, theirs.get().checksum(), checksum);
        overTheirs = true;
      }
      response = store.update(storeId, theirs.get().id(), content, theirs.get().contentSha256());
    }
    return switch (response) {
      case Response.Ok<StoredMemory> ok -> {
        ledger.memoryIs(key, ok.body().id());
        ledger.acknowledged(key, checksum, ok.body().checksum());
        yield new FileResult.Written(overTheirs);
      }
      case Response.Conflict<StoredMemory> again -> {
        ledger.wantPull();
        yield new FileResult.Stopped(
            new PushOutcome.Conflict(
                Display.key(key) + " kept changing on the server; retrying later"));
      }
      case Response.NotFound<StoredMemory> gone -> {
        // The memory was deleted meanwhile: forget its id; the next push creates it.
        ledger.serverLacks(key);
        ledger.wantPull();
        yield new FileResult.Stopped(
            new PushOutcome.Conflict(Display.key(key) + " was deleted on the server meanwhile"));
      }
      case Response.Rejected<StoredMemory> rejected -> {
        if (rejected.status() == 403) {
          yield new FileResult.Stopped(
              new PushOutcome.NoAccess(Failures.forbidden(repo, "write", client)));
        }
        SyncState.Skip skip = StoreRefusal.skipOf(rejected.status(), rejected.error(), checksum);
        LOG.warning(repo + ": the server refused " + Display.key(key) + " (" + skip.detail() + ")");
        yield new FileResult.Skipped(skip);
      }
      case Response.Unauthorized<StoredMemory> unauthorized ->
          new FileResult.Stopped(new PushOutcome.NoAccess(Failures.unauthorized()));
      case Response.TransportFailure<StoredMemory> failure ->
          new FileResult.Stopped(PushOutcome.Offline.of(failure));
      case Response.TooManyEntries<StoredMemory> tooMany -> {
        ledger.learnedCap(tooMany.maxEntries());
        yield new FileResult.Skipped(
            new SyncState.Skip(
                SkipReason.OVER_CAP,
                "the server holds at most %,d entries".formatted(tooMany.maxEntries()),
                checksum));
      }
      case Response.NotModified<StoredMemory> notModified ->
          new FileResult.Stopped(new PushOutcome.Rejected("the server answered a write with 304"));
    };
  }

  /** The memory at {@code key} as the server holds it now, by id or, for a create, by listing. */
  private Optional<StoredMemory> current(
      MemoryStoreClient store, String storeId, String key, Optional<String> id) {
    if (id.isPresent() && store.get(storeId, id.get()) instanceof Response.Ok<StoredMemory> ok) {
      return Optional.of(ok.body());
    }
    Optional<String> page = Optional.empty();
    do {
      if (!(store.list(storeId, page) instanceof Response.Ok<MemoryPage> listed)) {
        return Optional.empty();
      }
      for (StoredMemory memory : listed.body().memories()) {
        if (memory.key().equals(key)) {
          return Optional.of(memory);
        }
      }
      page = listed.body().next();
    } while (page.isPresent());
    return Optional.empty();
  }

  /**
   * Sends {@code delta} as {@code team_memory} PUTs chained on the repository checksum. Each round
   * plans batches from what is left and sends them until one answer needs a new plan: a {@code 412}
   * (probe the server, drop what it already has, retry) or the entry cap (keep what fits, retry),
   * each a bounded number of times.
   */
  private PushOutcome send(
      SyncLedger ledger,
      Map<String, String> delta,
      Map<String, String> checksums,
      Checkpoint checkpoint) {
    Tally tally = new Tally();
    int preconditionRetries = 0;
    int capRetries = 0;
    while (!delta.isEmpty()) {
      switch (sendBatches(ledger, delta, checksums, checkpoint, tally)) {
        case BatchResult.Sent sent -> {}
        case BatchResult.StaleChecksum stale -> {
          if (preconditionRetries++ == MAX_PRECONDITION_RETRIES) {
            return new PushOutcome.Conflict(
                "the repository changed during every one of "
                    + (MAX_PRECONDITION_RETRIES + 1)
                    + " attempts (412); retrying later");
          }
          Optional<PushOutcome> failed = probe(ledger, delta, checksums, tally.conflicts);
          if (failed.isPresent()) {
            return failed.get();
          }
        }
        case BatchResult.OverCap over -> {
          ledger.learnedCap(over.maxEntries());
          LOG.warning(repo + ": the server holds at most " + over.maxEntries() + " entries (413)");
          if (capRetries++ == MAX_CAP_RETRIES) {
            return new PushOutcome.Rejected(
                "the server's entry cap of " + over.maxEntries() + " is reached");
          }
          applyCap(ledger, delta, checksums);
        }
        case BatchResult.Stopped stopped -> {
          return stopped.outcome();
        }
      }
    }
    findTheirVersions(ledger, tally.pushed);
    if (tally.pushed.isEmpty()) {
      return new PushOutcome.NothingToPush();
    }
    ledger.pushed();
    return new PushOutcome.Pushed(tally.pushed.size(), tally.batches, List.copyOf(tally.conflicts));
  }

  /** What sending one round of {@code team_memory} batches came to. */
  private sealed interface BatchResult {
    /** Every batch of the round is on the server (or its refused keys are skipped). */
    record Sent() implements BatchResult {}

    /** {@code 412}: the repository is not at the checksum we sent; nothing of this batch landed. */
    record StaleChecksum() implements BatchResult {}

    /** {@code 413} with the entry cap: the batch would exceed {@code maxEntries}. */
    record OverCap(int maxEntries) implements BatchResult {}

    /** The push stops (offline, no access, refused); the outcome says why. */
    record Stopped(PushOutcome outcome) implements BatchResult {}
  }

  /** What the {@code team_memory} rounds of one push sent so far. */
  private static final class Tally {
    final Set<String> pushed = new TreeSet<>();
    final Set<String> conflicts = new LinkedHashSet<>();
    int batches;
  }

  /** Plans {@code delta} into batches and sends them in order, stopping at the first setback. */
  private BatchResult sendBatches(
      SyncLedger ledger,
      Map<String, String> delta,
      Map<String, String> checksums,
      Checkpoint checkpoint,
      Tally tally) {
    for (Map<String, String> planned : BatchPlanner.plan(delta, BatchPlanner.MAX_BATCH_BYTES)) {
      BatchResult result =
          sendBatch(ledger, new TreeMap<>(planned), delta, checksums, checkpoint, tally);
      if (!(result instanceof BatchResult.Sent)) {
        return result;
      }
    }
    return new BatchResult.Sent();
  }

  /**
   * PUTs one batch. When the server refuses keys it names (a secret, an entry too large, a bad
   * key), those are skipped and the rest of the batch is sent again.
   */
  private BatchResult sendBatch(
      SyncLedger ledger,
      Map<String, String> batch,
      Map<String, String> delta,
      Map<String, String> checksums,
      Checkpoint checkpoint,
      Tally tally) {
    while (!batch.isEmpty()) {
      Response<PutResponse> response =
          client.put(repo, batch, Optional.of(ledger.repositoryChecksum()));
      switch (response) {
        case Response.Ok<PutResponse> ok -> {
          for (String key : batch.keySet()) {
            String sent = checksums.get(key);
            ledger.acknowledged(key, sent, ok.body().entryChecksums().getOrDefault(key, sent));
          }
          ledger.repositoryIs(ok.body().checksum());
          delta.keySet().removeAll(batch.keySet());
          tally.pushed.addAll(batch.keySet());
          tally.batches++;
          checkpoint.acknowledged(batch.size());
          return new BatchResult.Sent();
        }
        case Response.Conflict<PutResponse> conflict -> {
          return new BatchResult.StaleChecksum();
        }
        case Response.TooManyEntries<PutResponse> tooMany -> {
          return new BatchResult.OverCap(tooMany.maxEntries());
        }
        case Response.Rejected<PutResponse> rejected -> {
          Set<String> named = keysNamed(rejected.error(), batch.keySet());
          Optional<SkipReason> dropReason = dropReason(rejected);
          if (dropReason.isEmpty() || named.isEmpty()) {
            return new BatchResult.Stopped(
                rejected.status() == 403
                    ? new PushOutcome.NoAccess(Failures.forbidden(repo, "write", client))
                    : new PushOutcome.Rejected(
                        "the server refused the push: "
                            + Failures.describe(rejected.status(), rejected.error())));
          }
          for (String key : named) {
            String detail = detailFor(rejected, key);
            ledger.skipped(key, new SyncState.Skip(dropReason.get(), detail, checksums.get(key)));
            LOG.warning(
                repo
                    + ": the server refused "
                    + Display.key(key)
                    + " ("
                    + detail
                    + "); sending the rest");
            batch.remove(key);
            delta.remove(key);
          }
        }
        case Response.NotFound<PutResponse> notFound -> {
          // The repository, or the whole server? Only a Team Memory server's 404 blames the
          // repository.
          return new BatchResult.Stopped(
              new PushOutcome.NoAccess(
                  client.speaksTeamMemory().orElse(true)
                      ? Failures.notFoundOnPut(repo)
                      : Failures.notTeamMemory(client.serverUrl())));
        }
        case Response.Unauthorized<PutResponse> unauthorized -> {
          return new BatchResult.Stopped(new PushOutcome.NoAccess(Failures.unauthorized()));
        }
        case Response.TransportFailure<PutResponse> failure -> {
          return new BatchResult.Stopped(PushOutcome.Offline.of(failure));
        }
        case Response.NotModified<PutResponse> notModified -> {
          return new BatchResult.Stopped(
              new PushOutcome.Rejected("the server answered a push with 304"));
        }
      }
    }
    return new BatchResult.Sent();
  }

  /** After a 412: learn what the server holds, note conflicts, drop what is already there. */
  private Optional<PushOutcome> probe(
      SyncLedger ledger,
      Map<String, String> delta,
      Map<String, String> checksums,
      Set<String> conflicts) {
    Response<HashesView> response = client.fetchHashes(repo);
    Map<String, String> now;
    String repositoryChecksum;
    switch (response) {
      case Response.Ok<HashesView> ok -> {
        now = ok.body().entryChecksums();
        repositoryChecksum = ok.body().checksum();
      }
      case Response.NotFound<HashesView> notFound -> {
        now = Map.of();
        repositoryChecksum = Checksums.EMPTY;
      }
      case Response.Unauthorized<HashesView> unauthorized -> {
        return Optional.of(new PushOutcome.NoAccess(Failures.unauthorized()));
      }
      case Response.TransportFailure<HashesView> failure -> {
        return Optional.of(PushOutcome.Offline.of(failure));
      }
      case Response.Rejected<HashesView> rejected -> {
        return Optional.of(
            rejected.status() == 403
                ? new PushOutcome.NoAccess(Failures.forbidden(repo, "read", client))
                : new PushOutcome.Rejected(
                    "the hashes probe failed: "
                        + Failures.describe(rejected.status(), rejected.error())));
      }
      case Response.NotModified<HashesView> notModified -> {
        return Optional.of(new PushOutcome.Rejected("the hashes probe answered 304"));
      }
      case Response.Conflict<HashesView> conflict -> {
        return Optional.of(new PushOutcome.Rejected("the hashes probe answered 412"));
      }
      case Response.TooManyEntries<HashesView> tooMany -> {
        return Optional.of(new PushOutcome.Rejected("the hashes probe answered 413"));
      }
    }
    LOG.info(repo + ": the repository changed meanwhile (412); probed its checksums and retrying");
    for (String key : new ArrayList<>(delta.keySet())) {
      String theirs = now.get(key);
      String mine = checksums.get(key);
      if (mine.equals(theirs)) {
        delta.remove(key);
        ledger.agreed(key, mine);
      } else if (theirs != null && !theirs.equals(ledger.syncedChecksum(key).orElse(null))) {
        ledger.conflict(key, theirs, mine);
        conflicts.add(key);
      }
    }
    ledger.serverHolds(now, repositoryChecksum);
    ledger.wantPull();
    return Optional.empty();
  }

  /**
   * Keeps the new keys that fit under the learned cap (in key order) and marks the rest skipped.
   * Updates to keys the server already has always fit.
   */
  private void applyCap(
      SyncLedger ledger, Map<String, String> delta, Map<String, String> checksums) {
    if (ledger.maxEntries() <= 0) {
      return;
    }
    List<String> newKeys = new ArrayList<>(new TreeSet<>(delta.keySet()));
    newKeys.removeIf(ledger::serverHas);
    int room = Math.max(0, ledger.maxEntries() - ledger.serverEntryCount());
    for (int i = room; i < newKeys.size(); i++) {
      String key = newKeys.get(i);
      delta.remove(key);
      ledger.skipped(
          key,
          new SyncState.Skip(
              SkipReason.OVER_CAP,
              "the server holds at most %,d entries".formatted(ledger.maxEntries()),
              checksums.get(key)));
    }
    if (newKeys.size() > room) {
      LOG.warning(
          repo
              + ": "
              + (newKeys.size() - room)
              + " new file(s) do not sync: the server holds at most "
              + ledger.maxEntries()
              + " entries (see tmem status)");
    }
  }

  /** For conflicts, finds the teammate's version in the server's history, for the restore hint. */
  private void findTheirVersions(SyncLedger ledger, Set<String> pushed) {
    for (SyncState.ConflictRecord conflict : ledger.conflicts()) {
      if (conflict.theirVersion() != 0
          || conflict.savedCopy() != null
          || !pushed.contains(conflict.key())) {
        continue;
      }
      if (!ledger.syncedChecksum(conflict.key()).orElse("").equals(conflict.yourChecksum())) {
        continue;
      }
      if (client.history(repo, conflict.key()) instanceof Response.Ok<EntryHistory> ok) {
        for (EntryHistory.Version version : ok.body().versions()) {
          if (version.checksum().equals(conflict.theirChecksum()) && !version.deleted()) {
            ledger.theirVersionFound(conflict.key(), version.version(), version.author());
            LOG.warning(
                repo
                    + ": conflict on "
                    + Display.key(conflict.key())
                    + ": your version replaced "
                    + version.author()
                    + "'s version "
                    + version.version()
                    + ", which stays in the server's history");
            break;
          }
        }
      }
    }
  }

  /** Which status codes name keys to drop and resend without: 422, 413 per entry, 400 bad key. */
  private static Optional<SkipReason> dropReason(Response.Rejected<PutResponse> rejected) {
    Optional<String> code = rejected.error().flatMap(ErrorEnvelope::errorCode);
    if (rejected.status() == 422) {
      return Optional.of(SkipReason.SECRET);
    }
    if (rejected.status() == 413 && code.filter(ErrorCodes.ENTRY_TOO_LARGE::equals).isPresent()) {
      return Optional.of(SkipReason.TOO_LARGE);
    }
    if (rejected.status() == 400 && code.filter(ErrorCodes.INVALID_KEY::equals).isPresent()) {
      return Optional.of(SkipReason.REJECTED);
    }
    return Optional.empty();
  }

  private static String detailFor(Response.Rejected<PutResponse> rejected, String key) {
    if (rejected.status() == 422) {
      Set<String> rules = new TreeSet<>();
      for (Map<?, ?> finding : findings(rejected.error())) {
        if (key.equals(finding.get("key")) && finding.get("ruleId") != null) {
          rules.add(finding.get("ruleId").toString());
        }
      }
      return "the server's scanner: "
          + (rules.size() == 1 ? "rule " : "rules ")
          + String.join(", ", rules);
    }
    if (rejected.status() == 413) {
      return "the server's per-entry limit";
    }
    return "the server refused the key: " + Failures.describe(rejected.status(), rejected.error());
  }

  /**
   * The keys of this batch an error body names: {@code findings[].key}, {@code key}, {@code keys}.
   */
  private static Set<String> keysNamed(Optional<ErrorEnvelope> error, Set<String> batch) {
    Set<String> named = new TreeSet<>();
    for (Map<?, ?> finding : findings(error)) {
      if (finding.get("key") instanceof String key) {
        named.add(key);
      }
    }
    error.ifPresent(
        envelope -> {
          Map<String, Object> details = envelope.error().details();
          if (details.get("key") instanceof String key) {
            named.add(key);
          }
          if (details.get("keys") instanceof List<?> keys) {
            keys.forEach(key -> named.add(String.valueOf(key)));
          }
        });
    named.retainAll(batch);
    return named;
  }

  private static List<Map<?, ?>> findings(Optional<ErrorEnvelope> error) {
    List<Map<?, ?>> findings = new ArrayList<>();
    error.ifPresent(
        envelope -> {
          if (envelope.error().details().get("findings") instanceof List<?> list) {
            for (Object item : list) {
              if (item instanceof Map<?, ?> finding) {
                findings.add(finding);
              }
            }
          }
        });
    return findings;
  }
}
