package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Permissions a remote identity provider reported, cached in PostgreSQL ({@code repo_access}) so
 * that every replica shares them and a provider's rate limit is not spent on every request. Rows
 * are keyed by the caller's stable {@link Caller#id()}; the static tokens file needs no cache.
 */
@ApplicationScoped
class RepositoryAccessCache {

  /** The cached permission, unless there is none or it expired. */
  @Transactional
  Optional<Permission> lookup(Caller caller, RepositorySlug repository, Instant now) {
    RepoAccess cached = RepoAccess.findById(new RepoAccess.Id(caller.id(), repository.key()));
    return cached == null || !cached.expiresAt.isAfter(now)
        ? Optional.empty()
        : Optional.of(cached.permission);
  }

  /**
   * Caches a permission the provider just reported, for {@code lifetime}. An upsert, because
   * concurrent requests of one user (on any replica) may report the same permission at once.
   */
  @Transactional
  void remember(
      Caller caller,
      RepositorySlug repository,
      Permission permission,
      Instant now,
      Duration lifetime) {
    requireNonNull(permission, "permission is null");
    RepoAccess.getEntityManager()
        .createNativeQuery(
            """
            INSERT INTO repo_access (user_id, slug_key, permission, checked_at, expires_at)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (user_id, slug_key) DO UPDATE
              SET permission = EXCLUDED.permission,
                  checked_at = EXCLUDED.checked_at,
                  expires_at = EXCLUDED.expires_at
            """)
        .setParameter(1, caller.id())
        .setParameter(2, repository.key())
        .setParameter(3, permission.name())
        .setParameter(4, now)
        .setParameter(5, now.plus(lifetime))
        .executeUpdate();
  }

  /** Deletes every expired row; returns how many. */
  @Transactional
  long expire(Instant now) {
    return RepoAccess.delete("expiresAt <= ?1", now);
  }
}
