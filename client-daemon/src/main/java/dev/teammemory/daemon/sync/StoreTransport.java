package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.protocol.client.MemoryStoreClient;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.protocol.store.ExportSummary;
import dev.teammemory.protocol.store.MemoryPage;
import dev.teammemory.protocol.store.MemoryPathRules;
import dev.teammemory.protocol.store.StoredMemory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * File by file, on the Memory Stores API of the repository's store: a pull follows the repository
 * by version (the change feed names what changed; only those memories are read, by id) and starts
 * over from the streamed export; a push writes each file as its own request with its own
 * precondition. What the API refuses though {@code team_memory} takes it goes by {@code
 * team_memory} ({@link TeamMemoryTransport}), as does the delete of a file whose memory id is
 * unknown.
 */
final class StoreTransport implements Transport {

  private static final Logger LOG = Logger.getLogger(StoreTransport.class.getName());

  private final String storeId;
  private final String repo;
  private final TeamMemoryClient client;
  private final Puller puller;
  private final TeamMemoryTransport teamMemory;
  private final TransportChoice choice;

  /** {@code teamMemory}: the same repository's {@code team_memory}, for what the API refuses. */
  StoreTransport(String storeId, TeamMemoryTransport teamMemory, TransportChoice choice) {
    this.storeId = storeId;
    this.teamMemory = teamMemory;
    this.choice = choice;
    this.repo = teamMemory.repo();
    this.client = teamMemory.client();
    this.puller = teamMemory.puller();
  }

  @Override
  public Optional<String> storeId() {
    return Optional.of(storeId);
  }

  /**
   * Before the first version, the whole store; with the change feed's answer, what it names;
   * otherwise what changed after the ledger's version, asked of the feed without waiting.
   */
  @Override
  public PullOutcome pull(
      SyncLedger ledger, boolean onlyIfChanged, Optional<VersionChanges> changes) {
    if (ledger.version() == 0) {
      return pullWhole(ledger, true);
    }
    if (changes.isPresent()) {
      return pullChanges(ledger, changes.get());
    }
    return pullChangesNow(ledger);
  }

  /** Pulls the keys written after the ledger's version, asked of the feed without waiting. */
  private PullOutcome pullChangesNow(SyncLedger ledger) {
    Response<VersionChanges> answer = client.changesAfter(repo, ledger.version(), Duration.ZERO);
    return switch (answer) {
      case Response.Ok<VersionChanges> ok -> pullChanges(ledger, ok.body());
      case Response.NotModified<VersionChanges> none -> new PullOutcome.Unchanged();
      default -> PullOutcome.notPulled(answer, repo, "the change feed", client);
    };
  }

  /**
   * Follows the repository by version when the server serves the Memory Stores API: reads only the
   * memories the change feed names with a checksum the ledger does not know, then applies them and
   * the deletes. A reset (or a ledger that never saw a version) reads the whole repository once and
   * lists the memory ids.
   */
  private PullOutcome pullChanges(SyncLedger ledger, VersionChanges changes) {
    MemoryStoreClient store = client.memoryStores();
    if (changes.reset() || ledger.version() == 0) {
      if (changes.reset()) {
        ledger.feedReset(changes.version());
      }
      return pullWhole(ledger, true);
    }
    if (!grewFromLedger(ledger, changes)) {
      // Asked again now: a write of this daemon's after the feed answered explains a difference
      // once; a second one means the history this daemon synced is gone.
      Response<VersionChanges> again = client.changesAfter(repo, ledger.version(), Duration.ZERO);
      if (again instanceof Response.Ok<VersionChanges> ok) {
        if (ok.body().reset() || !grewFromLedger(ledger, ok.body())) {
          LOG.warning(
              repo
                  + ": the server's repository at version "
                  + ok.body().version()
                  + " does not hold what this daemon synced; reading it whole");
          if (ok.body().reset()) {
            ledger.feedReset(ok.body().version());
          } else {
            ledger.historyDiverged(ok.body().version());
          }
          return pullWhole(ledger, true);
        }
        changes = ok.body();
      }
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
        puller.apply(
            ledger,
            contents,
            deleted,
            changes.checksum(),
            OptionalLong.of(changes.version()),
            learned);
    if (outcome instanceof PullOutcome.Pulled) {
      // What the server holds now, whether or not each file could be read or written here: the
      // next answer of the feed is weighed against it (grewFromLedger).
      changes.changed().forEach(ledger::serverHas);
      changes.deleted().keySet().forEach(ledger::serverLacks);
    }
    return outcome;
  }

  /**
   * Whether the feed's answer is what this daemon knows the server held at its version with the
   * keys the answer names applied: the repository checksum must then be the answer's. A restored
   * backup that was written past this daemon's version names keys after it as usual, yet holds
   * older copies of the others (or lacks them): its checksum tells.
   */
  private static boolean grewFromLedger(SyncLedger ledger, VersionChanges changes) {
    Map<String, String> expected = new TreeMap<>(ledger.serverChecksums());
    expected.putAll(changes.changed());
    changes.deleted().keySet().forEach(expected::remove);
    return Checksums.ofRepository(expected).equals(changes.checksum());
  }

  /**
   * {@code lookUpOn404}: a {@code 404} on the export asks the store lookup whether the store is
   * still the one the ledger knows (once: the read of a store just learned never asks again).
   */
  private PullOutcome pullWhole(SyncLedger ledger, boolean lookUpOn404) {
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
      case Response.Ok<ExportSummary> ok when ok.body().version().isPresent() ->
          startOver(ledger, entries, ids, ok.body().version().getAsLong(), learned);
      case Response.Ok<ExportSummary> unversioned -> pullWholeByTeamMemory(ledger);
      case Response.NotFound<ExportSummary> noExport when lookUpOn404 -> {
        // Either a server without the export, or a store it no longer knows (a new install, a
        // restore): the store lookup decides.
        choice.lookUp(ledger);
        if (ledger.storeId().equals(Optional.of(storeId))) {
          yield pullWholeByTeamMemory(ledger);
        }
        LOG.info(repo + ": the server no longer knows memory store " + storeId + "; reading anew");
        yield switch (choice.chosen(ledger)) {
          case TeamMemoryTransport byTeamMemory -> byTeamMemory.pull(ledger, false);
          case StoreTransport byAnotherStore -> byAnotherStore.pullWhole(ledger, false);
        };
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
      SyncLedger ledger,
      Map<String, String> entries,
      Map<String, String> ids,
      long version,
      Map<String, TeamAuthors.Learned> learned) {
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
    PullOutcome outcome =
        puller.apply(
            ledger, entries, tombstones, repositoryChecksum, OptionalLong.empty(), learned);
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
      return teamMemory.pull(ledger, false);
    }
    PullOutcome outcome = teamMemory.applyWhole(ledger, ok.body());
    if (outcome instanceof PullOutcome.Pulled) {
      Optional<PullOutcome> failed = listIds(ledger, client.memoryStores(), storeId);
      if (failed.isPresent()) {
        return failed.get();
      }
      ledger.versionIs(ok.body().version(), ok.body().checksum());
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
   * Sends each file as its own request on the Memory Stores API: a create that must not find the
   * path taken, or an update that must find the content last seen. A {@code 409} is a conflict on
   * that file alone: the teammate's version is read, recorded, and replaced once more with ours (it
   * stays in the server's history, as on {@code team_memory}). A file the API would refuse though
   * {@code team_memory} takes it (over 102,400 bytes, deeper than 20 segments, a name with a format
   * character or not in NFC: {@link MemoryPathRules}) goes in one {@code team_memory} PUT instead.
   */
  @Override
  public PushOutcome send(SyncLedger ledger, Outgoing files, Checkpoint checkpoint) {
    MemoryStoreClient store = client.memoryStores();
    Map<String, String> byTeamMemory = new TreeMap<>();
    List<String> conflicts = new ArrayList<>();
    int sent = 0;
    for (Map.Entry<String, String> file : files.contents().entrySet()) {
      String key = file.getKey();
      String content = file.getValue();
      if (!MemoryPathRules.accepts(key, content)) {
        byTeamMemory.put(key, content);
        continue;
      }
      FileResult result = sendOne(ledger, store, storeId, key, content, files.checksums().get(key));
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
      switch (teamMemory.send(ledger, new Outgoing(byTeamMemory, files.checksums()), checkpoint)) {
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
    teamMemory.findTheirVersions(ledger, new TreeSet<>(files.contents().keySet()));
    ledger.pushed();
    return new PushOutcome.Pushed(sent, sent, conflicts);
  }

  /** The memory's delete when its id is known; otherwise the key's, on {@code team_memory}. */
  @Override
  public Response<?> delete(SyncLedger ledger, PushPlan.Delete delete) {
    Optional<String> id = ledger.memoryId(delete.key());
    if (id.isEmpty()) {
      return teamMemory.delete(ledger, delete);
    }
    return client
        .memoryStores()
        .delete(storeId, id.get(), StoredMemory.sha256Of(delete.expectedChecksum()));
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
        // stands, and the pull writes it here after keeping this copy (it reads the file again:
        // what the server holds of it is not taken as applied here).
        ledger.serverCopyUnread(key);
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
}
