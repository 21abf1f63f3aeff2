package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

import dev.teammemory.server.database.PostgresArrays;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

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

  /** Whether the caller's whole listing of readable repositories is cached and fresh. */
  @Transactional
  boolean listingFresh(Caller caller, Instant now) {
    return !RepoAccess.getEntityManager()
        .createNativeQuery("SELECT 1 FROM repo_listing WHERE user_id = ?1 AND expires_at > ?2")
        .setParameter(1, caller.id())
        .setParameter(2, now)
        .getResultList()
        .isEmpty();
  }

  /** The keys of the repositories the caller may read, as far as the cache knows now. */
  @Transactional
  Set<String> readableKeys(Caller caller, Instant now) {
    List<RepoAccess> rows =
        RepoAccess.list(
            "id.userId = ?1 and permission <> ?2 and expiresAt > ?3",
            caller.id(),
            Permission.NONE,
            now);
    return rows.stream().map(row -> row.id.slugKey()).collect(Collectors.toSet());
  }

  /**
   * Caches a whole listing of the caller's repositories (each one as {@link #remember} would) and
   * that the listing was made, for {@code lifetime}.
   */
  @Transactional
  void rememberListing(
      Caller caller, Map<RepositorySlug, Permission> listed, Instant now, Duration lifetime) {
    // One statement for the whole listing (a user of a large organisation sees thousands).
    Map<String, Permission> byKey = new LinkedHashMap<>();
    listed.forEach(
        (repository, permission) -> byKey.merge(repository.key(), permission, Permission::or));
    RepoAccess.getEntityManager()
        .createNativeQuery(
            """
            INSERT INTO repo_access (user_id, slug_key, permission, checked_at, expires_at)
            SELECT ?1, listed.slug_key, listed.permission, ?4, ?5
            FROM unnest(CAST(?2 AS text[]), CAST(?3 AS text[])) AS listed(slug_key, permission)
            ON CONFLICT (user_id, slug_key) DO UPDATE
              SET permission = EXCLUDED.permission,
                  checked_at = EXCLUDED.checked_at,
                  expires_at = EXCLUDED.expires_at
            """)
        .setParameter(1, caller.id())
        .setParameter(2, PostgresArrays.textArray(byKey.keySet()))
        .setParameter(
            3, PostgresArrays.textArray(byKey.values().stream().map(Permission::name).toList()))
        .setParameter(4, now)
        .setParameter(5, now.plus(lifetime))
        .executeUpdate();
    RepoAccess.getEntityManager()
        .createNativeQuery(
            """
            INSERT INTO repo_listing (user_id, checked_at, expires_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (user_id) DO UPDATE
              SET checked_at = EXCLUDED.checked_at, expires_at = EXCLUDED.expires_at
            """)
        .setParameter(1, caller.id())
        .setParameter(2, now)
        .setParameter(3, now.plus(lifetime))
        .executeUpdate();
  }

  /** Deletes every expired row; returns how many. */
  @Transactional
  long expire(Instant now) {
    RepoAccess.getEntityManager()
        .createNativeQuery("DELETE FROM repo_listing WHERE expires_at <= ?1")
        .setParameter(1, now)
        .executeUpdate();
    return RepoAccess.delete("expiresAt <= ?1", now);
  }
}
