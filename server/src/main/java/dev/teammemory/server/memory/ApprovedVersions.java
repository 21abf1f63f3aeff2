package dev.teammemory.server.memory;

import dev.teammemory.server.auth.RepositorySlug;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.Optional;

/**
 * The approved-version pointer of each entry ({@code memory_entry.approved_version}): the kept
 * version teammates see while the repository requires review. Written here, beside the entries, so
 * that the review feature changes entries only through this service.
 */
@ApplicationScoped
public class ApprovedVersions {

  private final EntityManager entityManager;

  @Inject
  ApprovedVersions(EntityManager entityManager) {
    this.entityManager = entityManager;
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
   * The repository row's id, locked for the rest of the transaction; empty for a repository never
   * written. Review's decisions take it so that they serialise with the repository's writes.
   */
  @Transactional(Transactional.TxType.MANDATORY)
  public Optional<Long> lockRepository(RepositorySlug slug) {
    return entityManager
        .createNativeQuery("SELECT id FROM repository WHERE slug_key = ?1 FOR UPDATE")
        .setParameter(1, slug.key())
        .getResultList()
        .stream()
        .findFirst()
        .map(id -> ((Number) id).longValue());
  }
}
