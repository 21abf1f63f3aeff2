package dev.teammemory.server.memory;

import dev.teammemory.server.auth.AuthorizedRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The write side of review (issue 27): in the transaction of every write, under the repository
 * row's lock, the keys the write stamped become changes waiting for review ({@code review_change},
 * one row a key) when the repository requires review and the writer does not review; a reviewer's
 * write is approved as it is made (the keys' approved version moves to it). With review off,
 * nothing is written here.
 */
@ApplicationScoped
class ReviewQueue {

  private final EntityManager entityManager;

  @Inject
  ReviewQueue(EntityManager entityManager) {
    this.entityManager = entityManager;
  }

  /** Records the keys written at {@code version} by the target's caller. */
  @Transactional(Transactional.TxType.MANDATORY)
  void recordWrites(AuthorizedRepository target, long repositoryId, long version, Instant now) {
    boolean required =
        !entityManager
            .createNativeQuery(
                "SELECT 1 FROM review_setting WHERE slug_key = ?1 AND review = 'required'")
            .setParameter(1, target.slug().key())
            .getResultList()
            .isEmpty();
    if (!required) {
      return;
    }
    if (target.permission().allowsReview()) {
      entityManager
          .createNativeQuery(
              "UPDATE memory_entry SET approved_version = version"
                  + " WHERE repository_id = ?1 AND version = ?2")
          .setParameter(1, repositoryId)
          .setParameter(2, version)
          .executeUpdate();
      return;
    }
    // A rename moved the memory's row, approved-version pointer and all, to the new key, and left
    // a new tombstone row at the old key. Teammates see the memory where it was approved: the
    // pointer goes back to the old key's row, and the new key has none of its own yet.
    entityManager
        .createNativeQuery(
            "WITH moved AS (SELECT m.id AS moved_id, o.id AS old_id, m.approved_version AS approved"
                + " FROM memory_entry m"
                + " JOIN memory_entry o ON o.repository_id = m.repository_id"
                + " AND o.version = m.version AND o.id <> m.id"
                + " JOIN memory_entry_version t ON t.repository_id = o.repository_id"
                + " AND t.entry_key = o.entry_key AND t.version = o.version"
                + " AND t.operation = 'moved'"
                + " JOIN memory_entry_version a ON a.repository_id = o.repository_id"
                + " AND a.entry_key = o.entry_key AND a.version = m.approved_version"
                + " AND a.memory_id = m.memory_id"
                + " WHERE m.repository_id = ?1 AND m.version = ?2 AND NOT m.deleted)"
                + " UPDATE memory_entry e SET approved_version ="
                + " CASE WHEN e.id = moved.old_id THEN moved.approved END"
                + " FROM moved WHERE e.id IN (moved.moved_id, moved.old_id)")
        .setParameter(1, repositoryId)
        .setParameter(2, version)
        .executeUpdate();
    // A rename is recorded as what it does to each key: the old key's delete, the new key's
    // content. The base is the approved version each change was made over (NULL: never approved).
    entityManager
        .createNativeQuery(
            "INSERT INTO review_change (id, repository_id, entry_key, memory_id, author,"
                + " operation, version, base_version, created_at)"
                + " SELECT 'rev_' || replace(gen_random_uuid()::text, '-', ''), e.repository_id,"
                + " e.entry_key, e.memory_id, ?1,"
                + " CASE WHEN e.deleted THEN 'delete' ELSE 'content' END,"
                + " e.version, e.approved_version, ?2"
                + " FROM memory_entry e WHERE e.repository_id = ?3 AND e.version = ?4"
                + " ORDER BY e.entry_key COLLATE \"C\"")
        .setParameter(1, target.caller().user())
        .setParameter(2, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
        .setParameter(3, repositoryId)
        .setParameter(4, version)
        .executeUpdate();
  }
}
