package dev.teammemory.server.memory;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Recomputes each repository's {@code entry_count} and {@code total_bytes} from its entries. Every
 * write keeps them current; this repairs drift (a manual fix in the database, a restore). Each
 * repository is recomputed under its row lock, so a concurrent write cannot interleave.
 */
@ApplicationScoped
class RepositoryStatistics {

  private static final Logger LOG = Logger.getLogger(RepositoryStatistics.class);

  private final EntityManager entityManager;

  @Inject
  RepositoryStatistics(EntityManager entityManager) {
    this.entityManager = entityManager;
  }

  /** Recomputes every repository's statistics; returns how many were wrong. */
  int refresh() {
    List<Long> ids =
        QuarkusTransaction.requiringNew()
            .call(
                () ->
                    entityManager
                        .createQuery("select r.id from Repository r order by r.id", Long.class)
                        .getResultList());
    int repaired = 0;
    for (Long id : ids) {
      repaired += QuarkusTransaction.requiringNew().call(() -> refresh(id));
    }
    if (repaired > 0) {
      LOG.infof("Repaired the statistics of %d repositories", repaired);
    }
    return repaired;
  }

  private int refresh(long id) {
    // Two statements: the second takes its snapshot after the lock is granted, so it sees every
    // write committed before it (one statement would compute from its start-of-statement view).
    entityManager
        .createNativeQuery("SELECT id FROM repository WHERE id = ?1 FOR UPDATE")
        .setParameter(1, id)
        .getResultList();
    return entityManager
        .createNativeQuery(
            "UPDATE repository r SET entry_count = live.entries, total_bytes = live.bytes"
                + " FROM (SELECT count(*) AS entries, coalesce(sum(size_bytes), 0) AS bytes"
                + " FROM memory_entry WHERE repository_id = ?1 AND NOT deleted) live"
                + " WHERE r.id = ?1"
                + " AND (r.entry_count <> live.entries OR r.total_bytes <> live.bytes)")
        .setParameter(1, id)
        .executeUpdate();
  }
}
