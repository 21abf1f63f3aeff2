package dev.teammemory.server.memory;

import dev.teammemory.server.database.PostgresArrays;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.Collection;
import org.jboss.logging.Logger;

/**
 * Prunes entry history beyond the retention policy: a kept version goes when it is beyond the
 * newest {@code keepVersions} of its key AND older than {@code keepFor}, or, whatever its age, when
 * its key keeps more than {@code maxVersionsPerKey} versions or {@code maxBytesPerKey} content
 * bytes counting from the newest (so the oldest go first). A key's newest version (its current
 * state) is never pruned, and each key is bounded on its own: one key's history never evicts
 * another's. The bounds are enforced by every write for the keys it wrote (inside its transaction)
 * and by the scheduled job for all keys, so that history written before a lower bound shrinks too.
 * While a repository requires review, the version teammates see of each key (its approved version)
 * and the versions of changes still waiting are never pruned either: they are what a teammate's
 * view reads, what an approval publishes and what a rejection restores.
 */
@ApplicationScoped
class HistoryRetention {

  private static final Logger LOG = Logger.getLogger(HistoryRetention.class);

  /**
   * The versions beyond a key's count or byte bound, counted from its newest (never the newest
   * itself); {@code %s} narrows the keys. octet_length reads a stored value's size without
   * decompressing it.
   */
  private static final String BEYOND_BOUNDS =
      "DELETE FROM memory_entry_version WHERE id IN (SELECT id FROM ("
          + " SELECT id, repository_id, entry_key, version, row_number() OVER newest AS position,"
          + " sum(octet_length(content)) OVER newest AS bytes"
          + " FROM memory_entry_version WHERE %s"
          + " WINDOW newest AS (PARTITION BY repository_id, entry_key ORDER BY version DESC"
          + " ROWS UNBOUNDED PRECEDING)) ranked"
          + " WHERE position > 1 AND (position > :maxVersions OR bytes > :maxBytes)"
          + " AND NOT "
          + underReview("ranked")
          + ")";

  /**
   * True for a kept version {@code row} that review still needs: in a repository that requires
   * review, its key's approved version or a change's waiting for a decision.
   */
  private static String underReview(String row) {
    return ("EXISTS (SELECT 1 FROM repository r JOIN review_setting s ON s.slug_key = r.slug_key"
            + " AND s.review = 'required' WHERE r.id = %1$s.repository_id AND ("
            + "EXISTS (SELECT 1 FROM memory_entry e WHERE e.repository_id = %1$s.repository_id"
            + " AND e.entry_key = %1$s.entry_key AND e.approved_version = %1$s.version)"
            + " OR EXISTS (SELECT 1 FROM review_change c"
            + " WHERE c.repository_id = %1$s.repository_id AND c.entry_key = %1$s.entry_key"
            + " AND c.version = %1$s.version AND c.status = 'pending')))")
        .formatted(row);
  }

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
    if (policy.maxVersionsPerKey() < policy.keepVersions()) {
      throw new IllegalArgumentException(
          "TMEM_HISTORY_MAX_VERSIONS_PER_KEY must be at least TMEM_HISTORY_KEEP_VERSIONS ("
              + policy.keepVersions()
              + "): "
              + policy.maxVersionsPerKey());
    }
    if (policy.maxBytesPerKey() < 1 || policy.pageVersions() < 1) {
      throw new IllegalArgumentException(
          "TMEM_HISTORY_MAX_BYTES_PER_KEY and TMEM_HISTORY_PAGE_VERSIONS must be positive");
    }
  }

  /**
   * Drops the versions of {@code keys} beyond the per-key bounds, inside the caller's write
   * transaction (after the write's own versions are flushed); returns how many.
   */
  int bound(long repositoryId, Collection<String> keys) {
    if (keys.isEmpty()) {
      return 0;
    }
    entityManager.flush();
    return entityManager
        .createNativeQuery(
            BEYOND_BOUNDS.formatted(
                "repository_id = :repository AND entry_key = ANY (CAST(:keys AS text[]))"))
        .setParameter("repository", repositoryId)
        .setParameter("keys", PostgresArrays.textArray(keys))
        .setParameter("maxVersions", policy.maxVersionsPerKey())
        .setParameter("maxBytes", policy.maxBytesPerKey())
        .executeUpdate();
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
                    + ") >= ?2 AND NOT "
                    + underReview("old"))
            .setParameter(1, now.minus(policy.keepFor()))
            .setParameter(2, policy.keepVersions())
            .executeUpdate();
    pruned +=
        entityManager
            .createNativeQuery(BEYOND_BOUNDS.formatted("TRUE"))
            .setParameter("maxVersions", policy.maxVersionsPerKey())
            .setParameter("maxBytes", policy.maxBytesPerKey())
            .executeUpdate();
    if (pruned > 0) {
      LOG.infof("Pruned %d entry versions beyond the retention policy", pruned);
    }
    return pruned;
  }
}
