package dev.teammemory.server.review;

import dev.teammemory.protocol.AuditPage;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.server.auth.RepositorySlug;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit of a repository's review: decisions, restores, redactions and setting changes, by whom
 * and when ({@code review_audit}). Rows are added in the transaction of what they record and never
 * changed.
 */
@ApplicationScoped
public class ReviewAudit {

  /** What one page of the audit holds at most. */
  static final int PAGE_SIZE = 50;

  private final EntityManager entityManager;

  @Inject
  ReviewAudit(EntityManager entityManager) {
    this.entityManager = entityManager;
  }

  /** Records one action in the caller's transaction. */
  @Transactional(Transactional.TxType.MANDATORY)
  void record(
      RepositorySlug slug,
      String action,
      String actor,
      Optional<String> reviewId,
      Optional<String> key,
      String detail,
      Instant at) {
    entityManager
        .createNativeQuery(
            "INSERT INTO review_audit (slug_key, action, actor, review_id, entry_key, detail,"
                + " created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        .setParameter(1, slug.key())
        .setParameter(2, action)
        .setParameter(3, actor)
        .setParameter(4, reviewId.orElse(null))
        .setParameter(5, key.orElse(null))
        .setParameter(6, detail)
        .setParameter(7, OffsetDateTime.ofInstant(at, ZoneOffset.UTC))
        .executeUpdate();
  }

  /** One page of the audit, newest first, older than the row {@code beforeId} when given. */
  @Transactional
  public AuditPage page(RepositorySlug slug, Optional<Long> beforeId) {
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        entityManager
            .createNativeQuery(
                "SELECT id, action, actor, review_id, entry_key, detail, created_at"
                    + " FROM review_audit WHERE slug_key = ?1 AND id < ?2"
                    + " ORDER BY id DESC LIMIT ?3")
            .setParameter(1, slug.key())
            .setParameter(2, beforeId.orElse(Long.MAX_VALUE))
            .setParameter(3, PAGE_SIZE + 1)
            .getResultList();
    List<AuditPage.Entry> entries = new ArrayList<>();
    long lastId = 0;
    for (Object[] row : rows.subList(0, Math.min(rows.size(), PAGE_SIZE))) {
      lastId = ((Number) row[0]).longValue();
      entries.add(
          new AuditPage.Entry(
              (String) row[1],
              (String) row[2],
              (String) row[3],
              (String) row[4],
              (String) row[5],
              Timestamps.format(instantOf(row[6]))));
    }
    return new AuditPage(entries, rows.size() > PAGE_SIZE ? Long.toString(lastId) : null);
  }

  private static Instant instantOf(Object value) {
    return switch (value) {
      case Instant instant -> instant;
      case OffsetDateTime offset -> offset.toInstant();
      case java.sql.Timestamp timestamp -> timestamp.toInstant();
      default -> throw new IllegalStateException("a time column read as something else");
    };
  }
}
