package dev.teammemory.server.memory;

import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositorySlug;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

/**
 * The approved-version pointer of each entry ({@code memory_entry.approved_version}): the kept
 * version teammates see while the repository requires review. Written here, beside the entries, so
 * that the review feature changes entries only through this service.
 */
@ApplicationScoped
public class ApprovedVersions {

  private final EntityManager entityManager;
  private final EntryStore store;

  @Inject
  ApprovedVersions(EntityManager entityManager, EntryStore store) {
    this.entityManager = entityManager;
    this.store = store;
  }

  /**
   * Approves the key's kept {@code version} as the reviewer: teammates see it, and the key and the
   * repository get a new version so that every change feed wakes. Empty when the key is gone.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public Optional<Long> approve(AuthorizedRepository reviewer, String key, long version) {
    return store.approve(reviewer, key, version).map(RepositoryState::version);
  }

  /** The version that last wrote the key (0 for a key never written), as the console reads it. */
  @Transactional(Transactional.TxType.MANDATORY)
  public long currentVersion(RepositorySlug slug, String key) {
    List<?> rows =
        entityManager
            .createNativeQuery(
                "SELECT e.version FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
                    + " WHERE r.slug_key = ?1 AND e.entry_key = ?2")
            .setParameter(1, slug.key())
            .setParameter(2, key)
            .getResultList();
    return rows.stream().findFirst().map(version -> ((Number) version).longValue()).orElse(0L);
  }

  /**
   * The content of the key's approved version; empty when it was never approved, when the approved
   * version is a delete, or when that version is no longer kept.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public Optional<String> approvedContent(RepositorySlug slug, String key) {
    List<?> rows =
        entityManager
            .createNativeQuery(
                "SELECT v.content FROM memory_entry e JOIN repository r ON r.id = e.repository_id"
                    + " JOIN memory_entry_version v ON v.repository_id = e.repository_id"
                    + " AND v.entry_key = e.entry_key AND v.version = e.approved_version"
                    + " WHERE r.slug_key = ?1 AND e.entry_key = ?2 AND NOT v.deleted"
                    + " AND v.redacted_at IS NULL")
            .setParameter(1, slug.key())
            .setParameter(2, key)
            .getResultList();
    return rows.stream().findFirst().map(String.class::cast);
  }

  /**
   * Counts every entry of the repository as approved at its current version (review switched on),
   * under the repository row's lock, so that no write lands between the switch and the pointers.
   * Returns how many entries it marked; 0 for a repository never written.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public int approveEverything(RepositorySlug slug) {
    Optional<Long> repository = lockRepository(slug);
    if (repository.isEmpty()) {
      return 0;
    }
    return entityManager
        .createNativeQuery(
            "UPDATE memory_entry SET approved_version = version WHERE repository_id = ?1")
        .setParameter(1, repository.get())
        .executeUpdate();
  }

  /**
   * Review switched off: the keys whose newest version teammates did not see yet get a new
   * repository version, so that every change feed wakes them with it. Returns the new version,
   * empty when no key needed one.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public Optional<Long> publishNewest(AuthorizedRepository admin) {
    return store.publish(admin).map(RepositoryState::version);
  }

  /**
   * The repository row's id, locked for the rest of the transaction; empty for a repository never
   * written. Review's decisions take it so that they serialise with the repository's writes.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public Optional<Long> lockRepository(RepositorySlug slug) {
    List<?> rows =
        entityManager
            .createNativeQuery("SELECT id FROM repository WHERE slug_key = ?1 FOR UPDATE")
            .setParameter(1, slug.key())
            .getResultList();
    return rows.stream().findFirst().map(id -> ((Number) id).longValue());
  }
}
