package dev.teammemory.server.memory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Prunes entry history beyond the retention policy: a kept version goes only when it is beyond the
 * newest {@code keepVersions} of its key AND older than {@code keepFor}. Within the policy nothing
 * an acknowledged write produced is lost, and a key's newest version (its current state) is never
 * pruned.
 */
@ApplicationScoped
class HistoryRetention {

  private static final Logger LOG = Logger.getLogger(HistoryRetention.class);

  private final EntityManager entityManager;
  private final MemoryConfig.History policy;

  @Inject
  HistoryRetention(EntityManager entityManager, MemoryConfig config) {
    this.entityManager = entityManager;
    this.policy = config.history();
    if (policy.keepVersions() < 1) {
      throw new IllegalArgumentException(
          "TMEM_HISTORY_KEEP_VERSIONS must be at least 1 (a key's current version is always"
              + " kept): "
              + policy.keepVersions());
    }
  }

  /** Deletes the versions the policy no longer keeps, as of {@code now}; returns how many. */
  @Transactional
  int prune(Instant now) {
    // Only rows older than the cutoff are candidates (the created_at index finds them); each is
    // deleted when its key has at least keepVersions newer versions.
    int pruned =
        entityManager
            .createNativeQuery(
                "DELETE FROM memory_entry_version old WHERE old.created_at < ?1 AND ("
                    + " SELECT count(*) FROM memory_entry_version newer"
                    + " WHERE newer.repository_id = old.repository_id"
                    + " AND newer.entry_key = old.entry_key AND newer.version > old.version"
                    + ") >= ?2")
            .setParameter(1, now.minus(policy.keepFor()))
            .setParameter(2, policy.keepVersions())
            .executeUpdate();
    if (pruned > 0) {
      LOG.infof("Pruned %d entry versions beyond the retention policy", pruned);
    }
    return pruned;
  }
}
