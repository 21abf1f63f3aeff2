package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.BatchPlanner;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.PutResponse;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * The whole repository at a time, on {@code team_memory}: a pull reads the repository (or learns
 * with {@code If-None-Match} that it did not change); a push sends the changed files in batches
 * packed by {@link BatchPlanner}, each chained on the previous response's checksum. A {@code 412}
 * refreshes the server's checksums with the hashes probe and retries from the same files, at most
 * twice.
 */
final class TeamMemoryTransport implements Transport {

  private static final Logger LOG = Logger.getLogger(TeamMemoryTransport.class.getName());
  private static final int MAX_PRECONDITION_RETRIES = 2;
  private static final int MAX_CAP_RETRIES = 2;

  private final String repo;
  private final TeamMemoryClient client;
  private final Puller puller;

  TeamMemoryTransport(String repo, TeamMemoryClient client, Puller puller) {
    this.repo = repo;
    this.client = client;
    this.puller = puller;
  }

  String repo() {
    return repo;
  }

  TeamMemoryClient client() {
    return client;
  }

  Puller puller() {
    return puller;
  }

  @Override
  public Optional<String> storeId() {
    return Optional.empty();
  }

  /**
   * The whole repository; this transport does not follow versions, so {@code changes} is unused.
   */
  @Override
  public PullOutcome pull(
      SyncLedger ledger, boolean onlyIfChanged, Optional<VersionChanges> changes) {
    return pull(ledger, onlyIfChanged);
  }

  /**
   * The whole repository ({@code onlyIfChanged}: unless it still has the checksum the ledger
   * knows).
   */
  PullOutcome pull(SyncLedger ledger, boolean onlyIfChanged) {
    Response<RepositorySnapshot> response =
        client.fetch(
            repo, onlyIfChanged ? Optional.of(ledger.repositoryChecksum()) : Optional.empty());
    return switch (response) {
      case Response.Ok<RepositorySnapshot> ok ->
          puller.apply(
              ledger, ok.body().content().entries(), ok.body().deletedKeys(), ok.body().checksum());
      case Response.NotModified<RepositorySnapshot> notModified -> new PullOutcome.Unchanged();
      // A 404 on a read means a repository nobody wrote yet: empty. When this daemon has synced
      // files with it, that is the server's word that it forgot the repository.
      case Response.NotFound<RepositorySnapshot> notFound -> {
        if (!ledger.syncedChecksums().isEmpty()
            && !ledger.repositoryChecksum().equals(Checksums.EMPTY)) {
          ledger.serverForgot("it answers that the repository was never written");
        }
        yield puller.apply(ledger, Map.of(), Map.of(), Checksums.EMPTY);
      }
      default -> PullOutcome.notPulled(response, repo, "the pull", client);
    };
  }

  @Override
  public Response<?> delete(SyncLedger ledger, PushPlan.Delete delete) {
    return client.deleteExpecting(repo, delete.key(), delete.expectedChecksum());
  }

  /**
   * Sends {@code delta} as {@code team_memory} PUTs chained on the repository checksum. Each round
   * plans batches from what is left and sends them until one answer needs a new plan: a {@code 412}
   * (probe the server, drop what it already has, retry) or the entry cap (keep what fits, retry),
   * each a bounded number of times.
   */
  @Override
  public PushOutcome send(SyncLedger ledger, Outgoing files, Checkpoint checkpoint) {
    // What is left to send: a round takes out what landed and a 412 what the server has.
    Map<String, String> delta = new TreeMap<>(files.contents());
    Map<String, String> checksums = files.checksums();
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
          EntryCap.apply(ledger, delta, checksums);
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
   * /** For conflicts, finds the teammate's version in the server's history, for the restore hint.
   */
  void findTheirVersions(SyncLedger ledger, Set<String> pushed) {
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
