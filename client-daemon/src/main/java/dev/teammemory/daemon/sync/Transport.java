package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.VersionChanges;
import dev.teammemory.protocol.client.Response;
import java.util.Optional;

/**
 * How one project's files travel to and from the server: the whole repository on {@code
 * team_memory} ({@link TeamMemoryTransport}), or file by file on the Memory Stores API ({@link
 * StoreTransport}). Chosen once per project from the server's offer and chosen again only when that
 * offer changes ({@link TransportChoice}). A transport reads and writes; what a pull brings is
 * applied to the folder by {@link Puller}, and what a push sends is decided by {@link Pusher}.
 */
sealed interface Transport permits TeamMemoryTransport, StoreTransport {

  /** The memory store files are written to, or empty on {@code team_memory}. */
  Optional<String> storeId();

  /**
   * Reads what the server holds that the ledger does not and applies it to the folder. {@code
   * onlyIfChanged}: a read of the whole repository may answer that nothing changed; {@code
   * changes}: what the change feed by version named, when it asked for this pull.
   */
  PullOutcome pull(SyncLedger ledger, boolean onlyIfChanged, Optional<VersionChanges> changes);

  /** Sends the changed files and records each acknowledged one in the ledger. */
  PushOutcome send(SyncLedger ledger, Outgoing files, Checkpoint checkpoint);

  /** Sends one due delete; the pusher records what the answer means. */
  Response<?> delete(SyncLedger ledger, PushPlan.Delete delete);
}
