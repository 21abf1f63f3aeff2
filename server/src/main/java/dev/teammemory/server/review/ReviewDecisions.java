package dev.teammemory.server.review;

import dev.teammemory.protocol.ReviewPage;
import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.secrets.Finding;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.memory.ApprovedVersions;
import dev.teammemory.server.memory.EditOutcome;
import dev.teammemory.server.memory.MemoryEdits;
import dev.teammemory.server.secrets.SecretCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * A reviewer's decision on one waiting change, in one transaction under the repository row's lock.
 * An approval makes the change's version the one teammates see and stamps a new version so that
 * their change feeds wake. A rejection of the key's current change restores its approved version as
 * a new version (the reviewer's, so approved at once), or removes a memory never approved; a
 * rejection of a change a later one already replaced only records the decision. Each is audited.
 */
@ApplicationScoped
public class ReviewDecisions {

  /** A comment is a short note to the author; a longer one belongs in the pull request. */
  public static final int MAX_COMMENT_CHARACTERS = 2000;

  private final EntityManager entityManager;
  private final ApprovedVersions approvedVersions;
  private final MemoryEdits edits;
  private final ReviewAudit audit;
  private final Reviews reviews;
  private final SecretCheck secrets;

  @Inject
  ReviewDecisions(
      EntityManager entityManager,
      ApprovedVersions approvedVersions,
      MemoryEdits edits,
      ReviewAudit audit,
      Reviews reviews,
      SecretCheck secrets) {
    this.secrets = secrets;
    this.entityManager = entityManager;
    this.approvedVersions = approvedVersions;
    this.edits = edits;
    this.audit = audit;
    this.reviews = reviews;
  }

  /** What a decision came to. */
  public sealed interface Outcome {
    /** Decided: the change as it now stands. */
    record Decided(ReviewPage.Review review) implements Outcome {}

    /** No change of the repository has that id. */
    record NotFound() implements Outcome {}

    /** The change was decided before: its status. */
    record AlreadyDecided(String status) implements Outcome {}

    /** The comment cannot be kept (too long, or not Unicode text): nothing was decided. */
    record CommentRefused(String reason) implements Outcome {}

    /**
     * The comment holds a secret, named by its rule and line, never the match: nothing was decided.
     */
    record SecretInComment(String ruleId, int line) implements Outcome {
      /** In words, for the reviewer who wrote it. */
      public String reason() {
        return "the comment holds a secret (rule "
            + ruleId
            + ", line "
            + line
            + "); remove it and decide again";
      }
    }
  }

  /** {@code approve} true approves, false rejects; {@code comment} is shown to the author. */
  @Transactional
  public Outcome decide(
      AuthorizedRepository reviewer, String reviewId, boolean approve, String comment) {
    // The comment is shown to the author and kept in the audit: it is checked like every other
    // text a caller sends to be kept, before anything is locked or written.
    Optional<Outcome> refused = commentRefusal(comment);
    if (refused.isPresent()) {
      return refused.get();
    }
    RepositorySlug slug = reviewer.slug();
    Optional<Long> repository = approvedVersions.lockRepository(slug);
    if (repository.isEmpty()) {
      return new Outcome.NotFound();
    }
    @SuppressWarnings("unchecked")
    List<Object[]> rows =
        entityManager
            .createNativeQuery(
                "SELECT entry_key, version, status FROM review_change"
                    + " WHERE id = ?1 AND repository_id = ?2 FOR UPDATE")
            .setParameter(1, reviewId)
            .setParameter(2, repository.get())
            .getResultList();
    if (rows.isEmpty()) {
      return new Outcome.NotFound();
    }
    String key = (String) rows.getFirst()[0];
    long version = ((Number) rows.getFirst()[1]).longValue();
    String status = (String) rows.getFirst()[2];
    if (!status.equals(ReviewPage.PENDING)) {
      return new Outcome.AlreadyDecided(status);
    }
    String user = reviewer.caller().user();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    if (approve) {
      approvedVersions.approve(reviewer, key, version);
      audit.record(slug, "approved", user, Optional.of(reviewId), Optional.of(key), comment, now);
    } else {
      audit.record(slug, "rejected", user, Optional.of(reviewId), Optional.of(key), comment, now);
      if (approvedVersions.currentVersion(slug, key) == version) {
        restoreApproved(reviewer, key, version, reviewId, now);
      }
    }
    entityManager
        .createNativeQuery(
            "UPDATE review_change SET status = ?1, reviewer = ?2, review_comment = ?3,"
                + " decided_at = ?4 WHERE id = ?5")
        .setParameter(1, approve ? ReviewPage.APPROVED : ReviewPage.REJECTED)
        .setParameter(2, user)
        .setParameter(3, comment)
        .setParameter(4, OffsetDateTime.ofInstant(now, ZoneOffset.UTC))
        .setParameter(5, reviewId)
        .executeUpdate();
    return new Outcome.Decided(reviews.one(reviewer.slug(), reviewId).orElseThrow());
  }

  private Optional<Outcome> commentRefusal(String comment) {
    if (comment.length() > MAX_COMMENT_CHARACTERS) {
      return Optional.of(
          new Outcome.CommentRefused(
              "the comment is longer than " + MAX_COMMENT_CHARACTERS + " characters"));
    }
    Optional<String> violation = UnicodeText.violation(comment);
    if (violation.isPresent()) {
      return Optional.of(
          new Outcome.CommentRefused("the comment cannot be kept: it " + violation.get()));
    }
    List<Finding> findings = secrets.scan(comment);
    if (!findings.isEmpty()) {
      Finding first = findings.getFirst();
      return Optional.of(new Outcome.SecretInComment(first.ruleId(), first.line()));
    }
    return Optional.empty();
  }

  /** The key returns to its approved content, or leaves when it has none, as a new version. */
  private void restoreApproved(
      AuthorizedRepository reviewer, String key, long version, String reviewId, Instant now) {
    Optional<String> approved = approvedVersions.approvedContent(reviewer.slug(), key);
    EditOutcome restored =
        approved.isPresent()
            ? edits.save(reviewer, key, approved.get(), version)
            : edits.delete(reviewer, key, version);
    String detail =
        switch (restored) {
          case EditOutcome.Saved saved ->
              approved.isPresent()
                  ? "the approved version restored as version " + saved.version()
                  : "removed: never approved (version " + saved.version() + ")";
          case EditOutcome.Unchanged unchanged -> "already as approved";
          case EditOutcome.Changed changed -> "not restored: the memory changed meanwhile";
          case EditOutcome.Missing missing -> "not restored: the memory is gone";
          case EditOutcome.Refused refused -> "not restored: " + refused.reason();
        };
    audit.record(
        reviewer.slug(),
        "restored",
        reviewer.caller().user(),
        Optional.of(reviewId),
        Optional.of(key),
        detail,
        now);
  }
}
