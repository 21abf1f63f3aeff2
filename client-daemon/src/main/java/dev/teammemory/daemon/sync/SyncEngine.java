package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.watch.DebouncedWatcher;
import dev.teammemory.daemon.watch.TreeWatcher;
import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.EntryHistory;
import dev.teammemory.protocol.HashesView;
import dev.teammemory.protocol.RepositorySnapshot;
import dev.teammemory.protocol.ReviewPage;
import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.random.RandomGenerator;

/**
 * Keeps one team folder in sync with one repository. Threads (see docs/daemon.md):
 *
 * <ul>
 *   <li>the <b>sync thread</b> ({@code tmem-sync-<repo>}) runs the quiet-period timer, every pull
 *       and every push, one at a time, and alone touches the state;
 *   <li>the <b>watch thread</b> only records changes and restarts the timer;
 *   <li>the <b>feed thread</b> ({@code tmem-feed-<repo>}) long-polls the server's change feed (or
 *       polls with {@code If-None-Match}) and asks the sync thread for a pull when the repository
 *       changed.
 * </ul>
 *
 * Pull writes do not cause pushes of the same content: a push sends only keys whose checksum
 * differs from the server's.
 */
public final class SyncEngine implements AutoCloseable {

  /** Another process holds the project's lock; the message says which and what to do. */
  public static final class AlreadySyncing extends IOException {
    AlreadySyncing(String message) {
      super(message);
    }
  }

  private static final Logger LOG = Logger.getLogger(SyncEngine.class.getName());

  private final SyncTarget target;
  private final TeamMemoryClient client;
  private final TokenSource tokens;
  private final SyncSettings settings;
  private final TeamFolder folder;
  private final SyncStateStore store;
  private final ProjectLock lock;
  private final SyncLedger ledger;
  private final TransportChoice transports;
  private final Pusher pusher;
  private final ScheduledExecutorService worker;
  private final DebouncedWatcher debouncer;
  private final Backoff backoff;
  private final CountDownLatch stopping = new CountDownLatch(1);
  private final CompletableFuture<Void> started = new CompletableFuture<>();
  private volatile SyncState state;

  /** The caller's waiting and rejected changes, read again once the repository moved. */
  private OwnReviews ownReviews;

  private volatile boolean closed;
  private volatile boolean startedUp;

  /** Set by a failure to reach the server; the next push first rechecks the repository. */
  private volatile boolean outageSeen;

  private volatile Optional<String> tokenWhenBlocked = Optional.empty();
  private TreeWatcher watcher;
  private Thread feed;
  private ScheduledFuture<?> retry;
  private ScheduledFuture<?> deleteCheck;

  private SyncEngine(
      SyncTarget target,
      TeamMemoryClient client,
      TokenSource tokens,
      SecretGuard guard,
      SyncSettings settings,
      ProjectLock lock)
      throws IOException {
    this.target = target;
    this.client = client;
    this.tokens = tokens;
    this.settings = settings;
    this.lock = lock;
    this.folder = new TeamFolder(target.teamDir());
    this.store = new SyncStateStore(target.stateDir());
    this.state = store.load(target);
    this.ledger = new SyncLedger(state, Clock.systemUTC());
    this.ownReviews = OwnReviews.load(target.stateDir());
    this.transports =
        new TransportChoice(
            new TeamMemoryTransport(
                target.repo(),
                client,
                new Puller(
                    folder,
                    KeptCopies.of(target.stateDir(), System.getenv()),
                    target.stateDir(),
                    (key, checksum) -> writtenAt(client, target.repo(), key, checksum))));
    this.pusher = new Pusher(target.repo(), client, folder, guard);
    String name = target.repo().replace('/', '-');
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> Thread.ofPlatform().daemon().name("tmem-sync-" + name).unstarted(runnable));
    this.debouncer = new DebouncedWatcher(settings.quietPeriod(), worker, this::changed);
    // One backoff for every loop of the project: a failure seen by the push, the feed or the
    // start-up slows them all, and only a pull or push that went through resets it.
    this.backoff =
        new Backoff(settings.backoffInitial(), settings.backoffMax(), RandomGenerator.getDefault());
  }

  /**
   * Opens the project: takes its lock (one syncing process per folder) and loads its state. The
   * caller keeps ownership of the client.
   *
   * @throws AlreadySyncing when another process syncs this folder
   */
  public static SyncEngine open(
      SyncTarget target,
      TeamMemoryClient client,
      TokenSource tokens,
      SecretGuard guard,
      SyncSettings settings)
      throws IOException {
    requireNonNull(target, "target is null");
    requireNonNull(client, "client is null");
    requireNonNull(tokens, "tokens is null");
    requireNonNull(guard, "guard is null");
    requireNonNull(settings, "settings is null");
    Optional<ProjectLock> lock = ProjectLock.tryAcquire(target.stateDir());
    if (lock.isEmpty()) {
      throw new AlreadySyncing(
          "another tmem process (pid "
              + ProjectLock.holder(target.stateDir())
              + ") is already syncing "
              + target.teamDir()
              + "; it syncs every change, so there is nothing to do here (see `tmem status`)");
    }
    try {
      return new SyncEngine(target, client, tokens, guard, settings, lock.get());
    } catch (IOException | RuntimeException e) {
      lock.get().close();
      throw e;
    }
  }

  /** The state as last saved. */
  public SyncState state() {
    return state;
  }

  /**
   * Starts serving: watch the folder, pull (server wins, local edits made while stopped are kept
   * and pushed), push, then follow the server's changes. Returns at once.
   */
  public void start() throws IOException {
    watcher =
        TreeWatcher.start(
            folder.root(),
            change -> {
              if (!AtomicFiles.isTemporary(change.path())) {
                debouncer.accept(change);
              }
            });
    worker.execute(this::startUp);
    feed =
        Thread.ofPlatform()
            .daemon()
            .name("tmem-feed-" + target.repo().replace('/', '-'))
            .start(this::followChanges);
    LOG.info(target.repo() + ": serving " + target.teamDir() + " with " + target.serverUrl());
  }

  /** Completes once the pull and push at start went through. */
  public CompletableFuture<Void> whenStarted() {
    return started;
  }

  /** One pull and one push, now ({@code tmem sync}). */
  public SyncReport syncOnce() {
    SyncReport report =
        onWorker(
            () -> {
              PullOutcome pulled = pull(false);
              // Never pulled: every file here would count as new and go over teammates'
              // versions, so nothing is pushed before a first pull has gone through.
              PushOutcome pushed =
                  ledger.hasPulled()
                      ? push()
                      : new PushOutcome.Offline("nothing is pushed before a first pull");
              return new SyncReport(pulled, pushed, state);
            });
    if (report == null) {
      throw new IllegalStateException("the engine is closed");
    }
    return report;
  }

  /** Stops watching and following, then pushes what is pending (the SIGTERM flush). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopping.countDown();
    if (watcher != null) {
      watcher.close();
    }
    if (feed != null) {
      feed.interrupt();
    }
    Set<Path> waiting = debouncer.cancel();
    if (feed == null || !ledger.hasPulled()) {
      // Never started (`tmem sync`: its own push already ran), or never pulled (a push now would
      // go over teammates' versions): nothing to flush.
      worker.shutdownNow();
      closeLock();
      return;
    }
    try {
      worker
          .submit(
              () -> {
                // Safe even if the pull at this start failed: the ledger has pulled before, so only
                // local edits go out.
                cancelRetry();
                push();
              })
          .get(settings.shutdownFlush().toMillis(), TimeUnit.MILLISECONDS);
      if (!waiting.isEmpty()) {
        LOG.info(target.repo() + ": flushed pending changes at shutdown");
      }
    } catch (TimeoutException e) {
      LOG.warning(
          target.repo()
              + ": the flush at shutdown took longer than "
              + settings.shutdownFlush().toSeconds()
              + " s; pending changes go out at the next start");
    } catch (ExecutionException | RejectedExecutionException e) {
      LOG.log(Level.WARNING, target.repo() + ": the flush at shutdown failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      worker.shutdownNow();
      closeLock();
    }
  }

  private void closeLock() {
    try {
      lock.close();
    } catch (IOException e) {
      LOG.fine("releasing the project lock failed: " + e.getMessage());
    }
  }

  // ---- on the sync thread -------------------------------------------------------------------

  private void startUp() {
    transports.lookUp(ledger);
    PullOutcome outcome = pull(false);
    switch (outcome) {
      case PullOutcome.Pulled pulled -> {
        startedUp = true;
        push();
        started.complete(null);
      }
      case PullOutcome.Unchanged unchanged -> {
        startedUp = true;
        push();
        started.complete(null);
      }
      case PullOutcome.Offline offline -> retryStartUp(offline.retryAfter());
      case PullOutcome.Failed failed -> retryStartUp(Optional.empty());
      case PullOutcome.NoAccess noAccess -> {
        // The feed thread starts us again once the token changes.
      }
    }
  }

  /** Schedules the start-up again, apart from {@link #retry}, which a push cancels. */
  private void retryStartUp(Optional<Duration> retryAfter) {
    if (!closed) {
      worker.schedule(this::startUp, backoff.next(retryAfter).toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void changed(Set<Path> paths) {
    if (!ledger.hasPulled()) {
      // Never pulled yet: every file here would count as new and go over teammates' versions.
      // The start-up pushes everything once its pull has gone through.
      return;
    }
    if (ledger.blockedReason().isPresent()) {
      LOG.info(
          target.repo() + ": a file changed, trying again after: " + ledger.blockedReason().get());
      ledger.unblock();
      tokenWhenBlocked = Optional.empty();
    }
    if (retry != null && !retry.isDone()) {
      // A push is due after the backoff and takes this change along: an edit during an outage
      // adds no request.
      return;
    }
    // The files the watcher named are looked at alone; a delete, a folder or lost events need the
    // whole folder scanned (only a full scan finds files missing).
    push(folder.keysOf(paths));
  }

  private PullOutcome pull(boolean onlyIfChanged) {
    return pull(onlyIfChanged, Optional.empty());
  }

  /**
   * A pull by the project's transport ({@link Transport#pull}): by version with the Memory Stores
   * API ({@code changes}, or the feed asked now without waiting), otherwise the whole repository
   * ({@code onlyIfChanged}: unless it still has the checksum we know).
   */
  private PullOutcome pull(boolean onlyIfChanged, Optional<VersionChanges> changes) {
    PullOutcome outcome;
    try {
      outcome = transports.chosen(ledger).pull(ledger, onlyIfChanged, changes);
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, target.repo() + ": the pull failed unexpectedly", e);
      outcome = new PullOutcome.Failed("the pull failed unexpectedly (the daemon's log has more)");
    }
    switch (outcome) {
      case PullOutcome.Pulled pulled -> {
        if (pulled.written() + pulled.deleted() > 0) {
          LOG.info(
              target.repo()
                  + ": pulled: wrote "
                  + pulled.written()
                  + " file(s), deleted "
                  + pulled.deleted());
        }
        for (String key : pulled.conflicts()) {
          Optional<String> savedCopy =
              ledger.conflicts().stream()
                  .filter(conflict -> conflict.key().equals(key))
                  .map(SyncState.ConflictRecord::savedCopy)
                  .filter(java.util.Objects::nonNull)
                  .findFirst();
          LOG.warning(
              target.repo()
                  + ": "
                  + Display.key(key)
                  + savedCopy
                      .map(copy -> ": the server's version replaced the one here, kept at " + copy)
                      .orElse(
                          " changed here and on the server; keeping yours (theirs stays in the"
                              + " server's history)"));
        }
        for (String key : pulled.refused()) {
          LOG.warning(
              target.repo()
                  + ": refused the server's key "
                  + Display.key(key)
                  + ": "
                  + ledger.refusal(key).orElse(""));
        }
      }
      case PullOutcome.Unchanged unchanged -> {}
      case PullOutcome.Offline offline ->
          ledger.failed("cannot reach " + target.serverUrl() + " to pull: " + offline.reason());
      case PullOutcome.NoAccess noAccess -> block(noAccess.reason());
      case PullOutcome.Failed failed -> ledger.failed(failed.reason());
    }
    ledger.pullDone();
    save();
    if ((outcome instanceof PullOutcome.Pulled || outcome instanceof PullOutcome.Unchanged)
        && !ownReviews.waiting().isEmpty()) {
      ownReviewsAt(reviewsMark());
    }
    return outcome;
  }

  /** Where the repository is as this daemon knows it: its version and checksum, or the checksum. */
  private String reviewsMark() {
    return state
        .memoryStore()
        .map(store -> "version " + store.version() + " " + state.repositoryChecksum())
        .orElse(state.repositoryChecksum());
  }

  /**
   * After a long poll of the whole-repository feed ended without news: an approval of our own
   * waiting change leaves our view's content, and so its checksum, as it was, so that feed never
   * wakes for it; while something of ours waits, the reviews list is read again (one request a feed
   * wait).
   */
  private void recheckWaitingReviews() {
    if (!ownReviews.waiting().isEmpty()) {
      onWorker(
          () -> {
            ownReviewsAt(reviewsMark());
            return Boolean.TRUE;
          });
    }
  }

  /**
   * Reads the caller's waiting and rejected changes for {@code tmem status} (two requests), only
   * when they can have changed: after this daemon's own push moved the repository (a change of ours
   * may now wait), and, while one of ours waits, after each pull and each quiet long poll of the
   * whole-repository feed (an approval leaves our view's content, and so its checksum, as it was; a
   * rejection restores the approved version). Never per file, and never for a teammate's change
   * alone: a follower with nothing waiting reads nothing more than the change. A server that cannot
   * be asked now is asked at the next occasion.
   */
  private synchronized void ownReviewsAt(String moved) {
    if (moved.equals(ownReviews.checkedAt()) && ownReviews.waiting().isEmpty()) {
      return;
    }
    Optional<OwnReviews> read;
    try {
      read = OwnReviews.read(client, target.repo(), moved);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, target.repo() + ": could not read the reviews list", e);
      return;
    }
    if (read.isEmpty()) {
      return;
    }
    for (ReviewPage.Review rejected : read.get().rejected()) {
      if (ownReviews.rejected().stream().noneMatch(known -> known.id().equals(rejected.id()))
          && ownReviews.checkedAt() != null) {
        LOG.warning(
            target.repo()
                + ": your change to "
                + Display.key(rejected.key())
                + " was rejected by "
                + rejected.reviewer()
                + " (`tmem status` shows the comment; `tmem team restore` the copy kept of yours)");
      }
    }
    ownReviews = read.get();
    try {
      ownReviews.save(target.stateDir());
    } catch (IOException e) {
      LOG.warning(target.repo() + ": could not keep the reviews list: " + e.getMessage());
    }
  }

  private PushOutcome push() {
    return push(Optional.empty());
  }

  /** A push of the files named, or, without names, of the whole folder scanned. */
  private PushOutcome push(Optional<Set<String>> named) {
    cancelRetry();
    if (outageSeen) {
      // After an outage the server may be another (an empty database, a restored backup): what
      // it holds is weighed before anything here goes over it.
      outageSeen = checkNotWentBack() == Recheck.UNREACHABLE;
    }
    if (DeleteConfirmation.take(target.stateDir()) && ledger.deleteHold().isPresent()) {
      LOG.info(target.repo() + ": deletes confirmed; sending the held deletes");
      ledger.releaseHold();
    }
    PushOutcome outcome;
    try {
      outcome =
          pusher.push(ledger, transports.chosen(ledger), named, settings.deleteDelay(), this::save);
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, target.repo() + ": the push failed unexpectedly", e);
      outcome =
          new PushOutcome.Rejected("the push failed unexpectedly (the daemon's log has more)");
    }
    switch (outcome) {
      case PushOutcome.Pushed pushed -> {
        backoff.reset();
        LOG.info(
            target.repo()
                + ": pushed "
                + pushed.keys()
                + " file(s) in "
                + pushed.batches()
                + " batch(es)");
      }
      case PushOutcome.NothingToPush nothing -> backoff.reset();
      case PushOutcome.Conflict conflict -> {
        ledger.failed(conflict.reason());
        scheduleRetry(backoff.next(), this::retryPush);
      }
      case PushOutcome.Offline offline -> {
        outageSeen = true;
        Duration delay = backoff.next(offline.retryAfter());
        ledger.failed(
            "cannot reach "
                + target.serverUrl()
                + " to push: "
                + offline.reason()
                + " (retrying, "
                + ledger.pendingCount()
                + " change(s) pending)");
        LOG.warning(
            target.repo()
                + ": "
                + ledger.lastError().orElse("")
                + "; next try in "
                + delay.toMillis()
                + " ms");
        scheduleRetry(delay, this::retryPush);
      }
      case PushOutcome.Rejected rejected -> {
        ledger.failed(rejected.reason());
        LOG.warning(target.repo() + ": " + rejected.reason());
      }
      case PushOutcome.NoAccess noAccess -> block(noAccess.reason());
    }
    save();
    if (outcome instanceof PushOutcome.Pushed) {
      // Our push moved the repository, and under review it may now wait: the whole-repository
      // feed does not wake for our own change, so the list is read here (at most once a move).
      ownReviewsAt(reviewsMark());
    }
    if (ledger.pullWanted() && !closed && retry == null) {
      pull(false);
    }
    scheduleDeleteCheck();
    return outcome;
  }

  /** A retry after a failed push: first the pull the failure asked for, then the push. */
  private void retryPush() {
    retry = null;
    if (ledger.pullWanted()) {
      pull(false);
    }
    push();
  }

  private void block(String reason) {
    if (!ledger.blockedReason().equals(Optional.of(reason))) {
      LOG.warning(target.repo() + ": pushing stopped until you act: " + reason);
    }
    ledger.block(reason);
    tokenWhenBlocked = Optional.of(fingerprint(tokens.token()));
  }

  /**
   * Saves the ledger. A failed write (a full disk) costs nothing but the file: the ledger keeps the
   * state, the next save writes it, and syncing goes on.
   */
  private void save() {
    state = ledger.toState();
    try {
      store.save(state);
    } catch (UncheckedIOException e) {
      LOG.warning(
          target.repo() + ": " + e.getMessage() + "; kept in memory, saved at the next change");
    }
  }

  private void scheduleRetry(Duration delay, Runnable task) {
    if (closed) {
      return;
    }
    cancelRetry();
    retry = worker.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Missing files are deleted on a second scan at least the delete delay later, and a held delete
   * waits for the confirmation file; either way the sync thread looks again without a file event.
   */
  private void scheduleDeleteCheck() {
    if (closed
        || feed == null
        || state.missingSince().isEmpty()
        || ledger.blockedReason().isPresent()) {
      return;
    }
    if (deleteCheck != null && !deleteCheck.isDone()) {
      return;
    }
    Duration delay =
        state.heldDeletes().isPresent() && !state.heldDeletes().get().released()
            ? settings.pollInterval()
            : settings.deleteDelay();
    deleteCheck =
        worker.schedule(
            () -> {
              deleteCheck = null;
              push();
            },
            Math.max(1, delay.toMillis()),
            TimeUnit.MILLISECONDS);
  }

  private void cancelRetry() {
    if (retry != null) {
      retry.cancel(false);
      retry = null;
    }
  }

  // ---- on the feed thread -------------------------------------------------------------------

  private void followChanges() {
    while (!closed) {
      if (state.memoryStore().isPresent() && state.memoryStore().get().version() > 0) {
        followVersions();
        continue;
      }
      String since = state.repositoryChecksum();
      long asked = System.nanoTime();
      Response<HashesView> response =
          feedAnswer(() -> client.waitForChange(target.repo(), since, settings.feedWait()));
      if (closed) {
        return;
      }
      unblockIfTheTokenChanged();
      switch (response) {
        case Response.Ok<HashesView> ok -> {
          if (ok.body().checksum().equals(state.repositoryChecksum())) {
            answered(asked);
            recheckWaitingReviews();
          } else {
            Boolean healthy = onWorker(() -> startedUp ? pullAndPush(true) : Boolean.FALSE);
            // A change we could not take (the pull or push failed, or the repository is still
            // not what the feed said) is asked again only after the backoff: never a loop.
            if (!Boolean.TRUE.equals(healthy)
                || !ok.body().checksum().equals(state.repositoryChecksum())) {
              pause(backoff.next());
            } else {
              backoff.reset();
            }
          }
        }
        case Response.NotModified<HashesView> notModified -> {
          answered(asked);
          recheckWaitingReviews();
        }
        case Response.NotFound<HashesView> notFound -> pollInstead();
        case Response.Rejected<HashesView> rejected -> {
          if (rejected.status() == 403) {
            pause(settings.backoffMax());
          } else {
            pollInstead();
          }
        }
        case Response.Unauthorized<HashesView> unauthorized -> pause(settings.backoffMax());
        case Response.TransportFailure<HashesView> failure -> {
          outageSeen = true;
          pause(backoff.next(failure.retryAfter()));
        }
        case Response.Conflict<HashesView> conflict -> pollInstead();
        case Response.TooManyEntries<HashesView> tooMany -> pollInstead();
      }
    }
  }

  /**
   * A long poll that ended without news: at once is as fast as the feed may go only when the server
   * held it for a good part of the wait; an answer much sooner (a server that does not wait, a
   * proxy answering for it) waits out the backoff before asking again.
   */
  private void answered(long askedAtNanos) {
    long heldMillis = (System.nanoTime() - askedAtNanos) / 1_000_000;
    if (heldMillis < settings.feedWait().toMillis() / 2) {
      pause(backoff.next());
    } else {
      backoff.reset();
    }
  }

  /**
   * One wait on a change feed; a failure the client did not expect counts as a transport failure,
   * waited out with backoff like any other, so the feed thread never dies of it.
   */
  private static <T> Response<T> feedAnswer(Supplier<Response<T>> wait) {
    try {
      return wait.get();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the change feed failed unexpectedly", e);
      return new Response.TransportFailure<>(
          "the change feed failed unexpectedly", java.util.OptionalInt.empty());
    }
  }

  /** One wait on the change feed by version, and a pull of what it names. */
  private void followVersions() {
    long after = state.memoryStore().orElseThrow().version();
    long asked = System.nanoTime();
    Response<VersionChanges> response =
        feedAnswer(() -> client.changesAfter(target.repo(), after, settings.feedWait()));
    if (closed) {
      return;
    }
    unblockIfTheTokenChanged();
    switch (response) {
      case Response.Ok<VersionChanges> ok -> {
        Boolean healthy =
            onWorker(
                () -> {
                  // An answer about a version the ledger has moved past (a pull in between) is
                  // stale: what changed since is asked again instead.
                  Optional<VersionChanges> answer =
                      ledger.version() == after ? Optional.of(ok.body()) : Optional.empty();
                  if (!startedUp) {
                    return Boolean.FALSE;
                  }
                  PullOutcome pulled = pull(true, answer);
                  if (pulled instanceof PullOutcome.Pulled) {
                    return healthy(push());
                  }
                  return pulled instanceof PullOutcome.Unchanged;
                });
        // A change we could not take, or a version we did not move past, is asked again only
        // after the backoff: never a loop.
        if (!Boolean.TRUE.equals(healthy)
            || state.memoryStore().map(SyncState.StoreSync::version).orElse(0L) == after) {
          pause(backoff.next());
        } else {
          backoff.reset();
        }
      }
      case Response.NotModified<VersionChanges> notModified -> {
        answered(asked);
        onWorker(
            () -> {
              if (checkNotWentBack() == Recheck.READ_AGAIN) {
                push();
              }
              return null;
            });
      }
      case Response.TransportFailure<VersionChanges> failure -> {
        outageSeen = true;
        pause(backoff.next(failure.retryAfter()));
      }
      default -> pause(settings.backoffMax());
    }
  }

  /** What {@link #checkNotWentBack} found. */
  private enum Recheck {
    UNREACHABLE,
    SAME,
    READ_AGAIN
  }

  /**
   * Asks whether the repository is still what this daemon last saw, after an outage and after a
   * quiet long poll. A server restored from a backup is below the version this daemon follows, so
   * its feed stays quiet however long, and the first write after the outage would go over what it
   * holds; a conditional GET of the repository (a 304 while nothing changed) notices that its
   * content changed all the same, and a whole read then weighs the server's version against the one
   * this daemon synced ({@link SyncLedger#weighWholeRead}).
   */
  private Recheck checkNotWentBack() {
    if (!startedUp || closed || !(transports.chosen(ledger) instanceof StoreTransport)) {
      return Recheck.SAME;
    }
    String known = ledger.repositoryChecksum();
    Response<RepositorySnapshot> now = client.fetch(target.repo(), Optional.of(known));
    if (now instanceof Response.TransportFailure<RepositorySnapshot>) {
      return Recheck.UNREACHABLE;
    }
    if (now instanceof Response.Ok<RepositorySnapshot> ok && !ok.body().checksum().equals(known)) {
      pull(false, Optional.of(VersionChanges.reset(ok.body().version(), ok.body().checksum())));
      return Recheck.READ_AGAIN;
    }
    return Recheck.SAME;
  }

  /**
   * When the server wrote {@code checksum} as the key's content, from the first page of its history
   * (newest first); empty when the history is unreadable or does not hold it.
   */
  private static Optional<Instant> writtenAt(
      TeamMemoryClient client, String repo, String key, String checksum) {
    if (!(client.history(repo, key) instanceof Response.Ok<EntryHistory> ok)) {
      return Optional.empty();
    }
    return ok.body().versions().stream()
        .filter(version -> !version.deleted() && version.checksum().equals(checksum))
        .findFirst()
        .map(version -> Instant.parse(version.at()));
  }

  /** Whether a push left nothing failing behind (what the feed needs before asking again). */
  private static boolean healthy(PushOutcome outcome) {
    return outcome instanceof PushOutcome.Pushed || outcome instanceof PushOutcome.NothingToPush;
  }

  /** A server without the change feed: a conditional GET now and then instead. */
  private void pollInstead() {
    Boolean healthy = onWorker(() -> startedUp ? pullAndPush(true) : Boolean.TRUE);
    pause(
        Boolean.TRUE.equals(healthy)
            ? settings.pollInterval()
            : max(settings.pollInterval(), backoff.next()));
  }

  /** A pull, and a push when it brought something; whether both went through. */
  private Boolean pullAndPush(boolean onlyIfChanged) {
    PullOutcome pulled = pull(onlyIfChanged);
    if (pulled instanceof PullOutcome.Pulled) {
      return healthy(push());
    }
    return pulled instanceof PullOutcome.Unchanged;
  }

  private static Duration max(Duration one, Duration other) {
    return one.compareTo(other) >= 0 ? one : other;
  }

  private void unblockIfTheTokenChanged() {
    Optional<String> blockedWith = tokenWhenBlocked;
    if (blockedWith.isPresent() && !blockedWith.get().equals(fingerprint(tokens.token()))) {
      tokenWhenBlocked = Optional.empty();
      onWorker(
          () -> {
            LOG.info(target.repo() + ": the token changed; trying again");
            ledger.unblock();
            if (startedUp) {
              push();
            } else {
              startUp();
            }
            return null;
          });
    }
  }

  private void pause(Duration delay) {
    try {
      stopping.await(delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private <T> T onWorker(Callable<T> task) {
    try {
      return worker.submit(task).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the sync thread failed: " + e.getCause(), e.getCause());
    } catch (RejectedExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static String fingerprint(Optional<String> token) {
    return token.map(Checksums::ofContent).orElse("none");
  }
}
