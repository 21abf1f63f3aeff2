package dev.teammemory.server.memory;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.errors.ApiException;
import dev.teammemory.server.limits.LimitsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

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
  private final int maxWaitingPerKey;
  private final long maxWaitingBytes;

  @Inject
  ReviewQueue(EntityManager entityManager, MemoryConfig config, LimitsConfig limits) {
    this.entityManager = entityManager;
    this.maxWaitingPerKey = config.review().maxWaitingPerKey();
    this.maxWaitingBytes = config.review().maxWaitingBytes().orElse(limits.maxRepositoryBytes());
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
    requireWithinBounds(repositoryId, version);
  }

  /**
   * Refuses (and so rolls back) a write that leaves more waiting than the bounds allow: more
   * changes of one key than {@code maxWaitingPerKey}, or more waiting content in the repository
   * than {@code maxWaitingBytes}. Counted after the write, under the repository row's lock.
   */
  private void requireWithinBounds(long repositoryId, long version) {
    @SuppressWarnings("unchecked")
    List<Object> crowded =
        entityManager
            .createNativeQuery(
                "SELECT c.entry_key FROM review_change c"
                    + " WHERE c.repository_id = ?1 AND c.status = 'pending' AND c.entry_key IN"
                    + " (SELECT entry_key FROM memory_entry WHERE repository_id = ?1"
                    + " AND version = ?2)"
                    + " GROUP BY c.entry_key HAVING count(*) > ?3"
                    + " ORDER BY c.entry_key COLLATE \"C\" LIMIT 1")
            .setParameter(1, repositoryId)
            .setParameter(2, version)
            .setParameter(3, maxWaitingPerKey)
            .getResultList();
    if (!crowded.isEmpty()) {
      throw tooMany(
          crowded.getFirst()
              + " already has "
              + maxWaitingPerKey
              + " changes waiting for review; a reviewer must approve or reject them first");
    }
    Number waitingBytes =
        (Number)
            entityManager
                .createNativeQuery(
                    "SELECT coalesce(sum(octet_length(v.content)), 0) FROM review_change c"
                        + " JOIN memory_entry_version v ON v.repository_id = c.repository_id"
                        + " AND v.entry_key = c.entry_key AND v.version = c.version"
                        + " WHERE c.repository_id = ?1 AND c.status = 'pending'")
                .setParameter(1, repositoryId)
                .getSingleResult();
    if (waitingBytes.longValue() > maxWaitingBytes) {
      throw tooMany(
          "the changes waiting for review in this repository would hold more than "
              + maxWaitingBytes
              + " bytes; a reviewer must approve or reject some first");
    }
  }

  private static ApiException tooMany(String message) {
    return ApiException.of(429, ErrorCodes.TOO_MANY_WAITING_CHANGES, message);
  }
}
