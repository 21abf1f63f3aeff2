package dev.teammemory.daemon.sync;

import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.secrets.Verdict;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Decides and checks what a push sends: the keys whose checksum differs both from the last known
 * server checksum and from the last synced one, minus files that are too large, links, flagged by
 * the secret scanner, or over the learned entry cap; then hands them, and the deletes that are due,
 * to the project's {@link Transport}.
 */
final class Pusher {

  private static final Logger LOG = Logger.getLogger(Pusher.class.getName());

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
   * files, sends them, then sends the deletes that are due. {@code named}: only the files the
   * watcher named are looked at; without it the whole folder is scanned, which alone finds files
   * missing and sends deletes. {@code save} saves the ledger; it runs every {@value
   * Checkpoint#EVERY_FILES} acknowledged files ({@link Checkpoint}), and the engine saves when the
   * push ends.
   */
  PushOutcome push(
      SyncLedger ledger,
      Transport transport,
      Optional<Set<String>> named,
      Duration deleteDelay,
      Runnable save) {
    if (named.isPresent()
        && named.get().stream().anyMatch(key -> ledger.missingSince(key).isPresent())) {
      // A file counted missing is back: only a full scan lets go of its delete, or of a hold.
      return push(ledger, transport, Optional.empty(), deleteDelay, save);
    }
    Checkpoint checkpoint = new Checkpoint(save);
    LocalSnapshot snapshot;
    PushPlan plan;
    if (named.isPresent()) {
      snapshot = folder.look(named.get(), ledger::changedHere);
      plan = PushPlanner.planFiles(snapshot, ledger);
    } else {
      boolean folderExists = Files.isDirectory(folder.root());
      try {
        // A changed file's content is kept from the scan: it is read and hashed once.
        snapshot =
            folderExists ? folder.scan(ledger::changedHere) : new LocalSnapshot(Map.of(), Map.of());
      } catch (IOException e) {
        return new PushOutcome.Rejected("could not read the team folder: " + e.getMessage());
      }
      plan = PushPlanner.plan(snapshot, folderExists, ledger, ledger.now(), deleteDelay);
    }
    Map<String, SyncState.Skip> skips = new TreeMap<>(plan.skips());
    Map<String, String> delta = new TreeMap<>();
    Map<String, String> checksums = new HashMap<>();
    for (String key : plan.changed()) {
      Optional<String> content = snapshot.content(key);
      String checksum;
      if (content.isPresent()) {
        checksum = snapshot.checksumOf(key);
      } else {
        // Its checksum came from the scan's stamps, without a read: read (and hash) it now.
        try {
          content = folder.read(key);
        } catch (IOException e) {
          skips.put(key, new SyncState.Skip(SkipReason.UNREADABLE, FailureWords.describe(e), null));
          continue;
        }
        if (content.isEmpty()) {
          continue; // deleted since the scan: the next scan sees it missing
        }
        checksum = Checksums.ofContent(content.get());
        if (!ledger.changedHere(key, checksum)) {
          continue;
        }
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
    if (named.isPresent()) {
      ledger.skipsOf(named.get(), skips);
    } else {
      ledger.skipsAre(skips);
      noteMissing(ledger, plan);
    }
    EntryCap.apply(ledger, delta, checksums);
    if (named.isPresent()) {
      ledger.pendingOf(named.get(), delta.keySet());
    } else {
      ledger.pendingAre(delta.keySet());
    }

    PushOutcome sent =
        delta.isEmpty()
            ? new PushOutcome.NothingToPush()
            : transport.send(ledger, new Outgoing(delta, checksums), checkpoint);
    if (!(sent instanceof PushOutcome.Pushed) && !(sent instanceof PushOutcome.NothingToPush)) {
      return sent;
    }
    Optional<PushOutcome> failedDelete = deleteDue(ledger, transport, plan.deletes(), checkpoint);
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
      SyncLedger ledger,
      Transport transport,
      List<PushPlan.Delete> deletes,
      Checkpoint checkpoint) {
    for (PushPlan.Delete delete : deletes) {
      Response<?> response = transport.delete(ledger, delete);
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
}
