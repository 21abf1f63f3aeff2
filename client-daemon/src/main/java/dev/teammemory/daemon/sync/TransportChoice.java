package dev.teammemory.daemon.sync;

import dev.teammemory.protocol.AuthConfig;
import dev.teammemory.protocol.MemoryStoreLocation;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import dev.teammemory.protocol.store.StoreRef;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Chooses a project's {@link Transport} from what the server offers: the store lookup's answer, as
 * the ledger keeps it. The transport is chosen again only when that answer changes (a store appears
 * or disappears, or the server no longer knows the store and the lookup names another).
 */
final class TransportChoice {

  private static final Logger LOG = Logger.getLogger(TransportChoice.class.getName());

  private final TeamMemoryTransport teamMemory;
  private Transport chosen;

  /** {@code teamMemory}: the repository's {@code team_memory}, the transport every server has. */
  TransportChoice(TeamMemoryTransport teamMemory) {
    this.teamMemory = teamMemory;
    this.chosen = teamMemory;
  }

  /** The transport for the store the ledger knows; a new one only when that store changed. */
  Transport chosen(SyncLedger ledger) {
    Optional<String> storeId = ledger.storeId();
    if (!storeId.equals(chosen.storeId())) {
      chosen =
          storeId.isPresent() ? new StoreTransport(storeId.get(), teamMemory, this) : teamMemory;
    }
    return chosen;
  }

  /**
   * Asks the server what it offers: when it serves the Memory Stores API, the repository's store,
   * created if it has none yet (which needs push access; a reader keeps {@code team_memory}). Files
   * then sync one by one ({@link #chosen}). A store that differs from the one the ledger knew is
   * noted by the ledger ({@link SyncLedger#storeIs}); the next whole read decides whether the
   * server forgot.
   */
  void lookUp(SyncLedger ledger) {
    String repo = teamMemory.repo();
    TeamMemoryClient client = teamMemory.client();
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
}
