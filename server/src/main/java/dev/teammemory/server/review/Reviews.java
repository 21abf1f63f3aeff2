package dev.teammemory.server.review;

import dev.teammemory.protocol.ReviewPage;
import dev.teammemory.protocol.Timestamps;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositorySlug;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reviews list: changes made while a repository required review ({@code review_change}, which
 * the writes themselves add), oldest first. A reviewer sees every author's; anyone else only their
 * own, since a waiting change is visible to its author and reviewers only.
 */
@ApplicationScoped
public class Reviews {

  /** What one page of the list holds at most. */
  static final int PAGE_SIZE = 50;

  private final EntityManager entityManager;

  @Inject
  Reviews(EntityManager entityManager) {
    this.entityManager = entityManager;
  }

  /** One change as its own page shows it: the change, and the version its diff is made against. */
  public record Change(ReviewPage.Review review, String renamedFrom, Optional<Long> comparedWith) {}

  /** One page of the target's repository's changes in {@code status}, after {@code afterSeq}. */
  @Transactional
  public ReviewPage page(AuthorizedRepository target, String status, Optional<Long> afterSeq) {
    boolean reviewer = target.permission().allowsReview();
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        entityManager
            .createNativeQuery(
                "SELECT c.seq, c.id, c.entry_key, c.author, c.operation, c.version, c.created_at,"
                    + " c.status, c.reviewer, c.review_comment, c.decided_at"
                    + " FROM review_change c JOIN repository r ON r.id = c.repository_id"
                    + " WHERE r.slug_key = ?1 AND c.status = ?2 AND c.seq > ?3"
                    + " AND (CAST(?5 AS boolean) OR c.author = ?6)"
                    + " ORDER BY c.seq LIMIT ?4")
            .setParameter(1, target.slug().key())
            .setParameter(2, status)
            .setParameter(3, afterSeq.orElse(0L))
            .setParameter(4, PAGE_SIZE + 1)
            .setParameter(5, reviewer)
            .setParameter(6, target.caller().user())
            .getResultList();
    List<ReviewPage.Review> reviews = new ArrayList<>();
    long lastSeq = 0;
    for (Object[] row : rows.subList(0, Math.min(rows.size(), PAGE_SIZE))) {
      lastSeq = ((Number) row[0]).longValue();
      reviews.add(review(row));
    }
    return new ReviewPage(reviews, rows.size() > PAGE_SIZE ? Long.toString(lastSeq) : null);
  }

  /**
   * One change by its id for the target's caller: a reviewer sees any, anyone else only their own
   * (empty otherwise, as for an unknown id). A waiting change is compared with the key's approved
   * version now, which is what teammates see and what an approval replaces; a decided one with the
   * approved version it was made over. Empty {@code comparedWith}: the key had no approved version.
   */
  @Transactional
  public Optional<Change> change(AuthorizedRepository target, String id) {
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        entityManager
            .createNativeQuery(
                "SELECT c.seq, c.id, c.entry_key, c.author, c.operation, c.version, c.created_at,"
                    + " c.status, c.reviewer, c.review_comment, c.decided_at, c.renamed_from,"
                    + " CASE WHEN c.status = 'pending' THEN e.approved_version"
                    + " ELSE c.base_version END"
                    + " FROM review_change c JOIN repository r ON r.id = c.repository_id"
                    + " LEFT JOIN memory_entry e ON e.repository_id = c.repository_id"
                    + " AND e.entry_key = c.entry_key"
                    + " WHERE r.slug_key = ?1 AND c.id = ?2"
                    + " AND (CAST(?3 AS boolean) OR c.author = ?4)")
            .setParameter(1, target.slug().key())
            .setParameter(2, id)
            .setParameter(3, target.permission().allowsReview())
            .setParameter(4, target.caller().user())
            .getResultList();
    return rows.stream()
        .findFirst()
        .map(
            row ->
                new Change(
                    review(row),
                    (String) row[11],
                    Optional.ofNullable((Number) row[12]).map(Number::longValue)));
  }

  /** One change of the repository by its id, whoever wrote it (for the reviewer who decided it). */
  @Transactional
  Optional<ReviewPage.Review> one(RepositorySlug slug, String id) {
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        entityManager
            .createNativeQuery(
                "SELECT c.seq, c.id, c.entry_key, c.author, c.operation, c.version, c.created_at,"
                    + " c.status, c.reviewer, c.review_comment, c.decided_at"
                    + " FROM review_change c JOIN repository r ON r.id = c.repository_id"
                    + " WHERE r.slug_key = ?1 AND c.id = ?2")
            .setParameter(1, slug.key())
            .setParameter(2, id)
            .getResultList();
    return rows.stream().findFirst().map(Reviews::review);
  }

  private static ReviewPage.Review review(Object[] row) {
    return new ReviewPage.Review(
        (String) row[1],
        (String) row[2],
        (String) row[3],
        (String) row[4],
        ((Number) row[5]).longValue(),
        time(row[6]),
        (String) row[7],
        (String) row[8],
        (String) row[9],
        row[10] == null ? null : time(row[10]));
  }

  static String time(Object value) {
    Instant instant =
        switch (value) {
          case Instant at -> at;
          case OffsetDateTime offset -> offset.toInstant();
          case java.sql.Timestamp timestamp -> timestamp.toInstant();
          default -> throw new IllegalStateException("a time column read as something else");
        };
    return Timestamps.format(instant);
  }
}
