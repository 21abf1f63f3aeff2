package dev.teammemory.server.review;

import dev.teammemory.protocol.RepositorySettings;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.memory.ApprovedVersions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * Each repository's review setting ({@code review_setting}; none means {@code off}). Switching
 * review on counts every existing memory as approved; switching it off publishes every change that
 * waits. Both are audited, in the transaction that switches, under the repository row's lock.
 */
@ApplicationScoped
public class ReviewSettings {

  private static final RepositorySettings OFF =
      new RepositorySettings(RepositorySettings.REVIEW_OFF);

  private final EntityManager entityManager;
  private final ApprovedVersions approvedVersions;
  private final ReviewAudit audit;

  @Inject
  ReviewSettings(
      EntityManager entityManager, ApprovedVersions approvedVersions, ReviewAudit audit) {
    this.entityManager = entityManager;
    this.approvedVersions = approvedVersions;
    this.audit = audit;
  }

  /** What a switch did. */
  sealed interface Change {
    /** The repository already had that setting: nothing was written. */
    record Unchanged() implements Change {}

    /**
     * The setting changed; {@code approved} memories were counted as approved (switched on), or
     * {@code published} waiting changes were published (switched off).
     */
    record Switched(int approved, int published) implements Change {}
  }

  /** The repository's setting: {@code off} unless an admin required review. */
  @Transactional
  public RepositorySettings of(RepositorySlug slug) {
    @SuppressWarnings("unchecked")
    List<String> rows =
        entityManager
            .createNativeQuery("SELECT review FROM review_setting WHERE slug_key = ?1")
            .setParameter(1, slug.key())
            .getResultList();
    return rows.isEmpty() ? OFF : new RepositorySettings(rows.getFirst());
  }

  /** Sets the repository's review setting as the target's caller (an admin of it). */
  @Transactional
  Change change(AuthorizedRepository target, RepositorySettings wanted) {
    RepositorySlug slug = target.slug();
    String admin = target.caller().user();
    Instant now = Instant.now();
    // The repository row first, as every write takes it, then the setting's own row: a switch and
    // a write to the repository are never interleaved, and two admins' switches serialise.
    Optional<Long> repository = approvedVersions.lockRepository(slug);
    @SuppressWarnings("unchecked")
    List<String> current =
        entityManager
            .createNativeQuery("SELECT review FROM review_setting WHERE slug_key = ?1 FOR UPDATE")
            .setParameter(1, slug.key())
            .getResultList();
    RepositorySettings before =
        current.isEmpty() ? OFF : new RepositorySettings(current.getFirst());
    if (before.equals(wanted)) {
      return new Change.Unchanged();
    }
    entityManager
        .createNativeQuery(
            "INSERT INTO review_setting (slug_key, review, updated_at, updated_by)"
                + " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (slug_key) DO UPDATE"
                + " SET review = excluded.review, updated_at = excluded.updated_at,"
                + " updated_by = excluded.updated_by")
        .setParameter(1, slug.key())
        .setParameter(2, wanted.review())
        .setParameter(3, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
        .setParameter(4, admin)
        .executeUpdate();
    if (wanted.reviewRequired()) {
      int approved = approvedVersions.approveEverything(slug);
      audit.record(
          slug,
          "review_on",
          admin,
          Optional.empty(),
          Optional.empty(),
          approved + " existing memories counted as approved",
          now);
      return new Change.Switched(approved, 0);
    }
    int published = repository.map(id -> publishWaiting(id, admin, now)).orElse(0);
    // Teammates' views become the newest state: a new version, so every change feed tells them.
    approvedVersions.publishNewest(target);
    audit.record(slug, "review_off", admin, Optional.empty(), Optional.empty(), "", now);
    if (published > 0) {
      audit.record(
          slug,
          "published",
          admin,
          Optional.empty(),
          Optional.empty(),
          published + " waiting changes published when review was switched off",
          now);
    }
    return new Change.Switched(0, published);
  }

  /** Every waiting change of the repository counts as approved by the admin who switched off. */
  private int publishWaiting(long repositoryId, String admin, Instant now) {
    return entityManager
        .createNativeQuery(
            "UPDATE review_change SET status = 'approved', reviewer = ?1, review_comment = ?2,"
                + " decided_at = ?3 WHERE repository_id = ?4 AND status = 'pending'")
        .setParameter(1, admin)
        .setParameter(2, "published: review was switched off")
        .setParameter(3, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
        .setParameter(4, repositoryId)
        .executeUpdate();
  }
}
