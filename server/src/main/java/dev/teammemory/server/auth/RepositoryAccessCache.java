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
 * Permissions a remote identity provider reported, cached in PostgreSQL ({@code token_repo_access})
 * so that every replica shares them and a provider's rate limit is not spent on every request. Rows
 * are keyed by the token's digest ({@link TokenDigest}), since the provider answers for a token and
 * two tokens of one user may be granted different repositories; the static tokens file needs no
 * cache.
 */
@ApplicationScoped
class RepositoryAccessCache {

  /** The cached permission, unless there is none or it expired. */
  @Transactional
  Optional<Permission> lookup(String tokenDigest, RepositorySlug repository, Instant now) {
    RepoAccess cached = RepoAccess.findById(new RepoAccess.Id(tokenDigest, repository.key()));
    return cached == null || !cached.expiresAt.isAfter(now)
        ? Optional.empty()
        : Optional.of(cached.permission);
  }

  /**
   * Caches a permission the provider just reported, for {@code lifetime}. An upsert, because
   * concurrent requests with one token (on any replica) may report the same permission at once.
   */
  @Transactional
  void remember(
      String tokenDigest,
      RepositorySlug repository,
      Permission permission,
      Instant now,
      Duration lifetime) {
    requireNonNull(permission, "permission is null");
    RepoAccess.getEntityManager()
        .createNativeQuery(
            """
            INSERT INTO token_repo_access
              (token_digest, slug_key, permission, checked_at, expires_at)
            VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (token_digest, slug_key) DO UPDATE
              SET permission = EXCLUDED.permission,
                  checked_at = EXCLUDED.checked_at,
                  expires_at = EXCLUDED.expires_at
            """)
        .setParameter(1, tokenDigest)
        .setParameter(2, repository.key())
        .setParameter(3, permission.name())
        .setParameter(4, now)
        .setParameter(5, now.plus(lifetime))
        .executeUpdate();
  }

  /** Whether the token's whole listing of readable repositories is cached and fresh. */
  @Transactional
  boolean listingFresh(String tokenDigest, Instant now) {
    return !RepoAccess.getEntityManager()
        .createNativeQuery(
            "SELECT 1 FROM token_repo_listing WHERE token_digest = ?1 AND expires_at > ?2")
        .setParameter(1, tokenDigest)
        .setParameter(2, now)
        .getResultList()
        .isEmpty();
  }

  /** The keys of the repositories the token may read, as far as the cache knows now. */
  @Transactional
  Set<String> readableKeys(String tokenDigest, Instant now) {
    List<RepoAccess> rows =
        RepoAccess.list(
            "id.tokenDigest = ?1 and permission <> ?2 and expiresAt > ?3",
            tokenDigest,
            Permission.NONE,
            now);
    return rows.stream().map(row -> row.id.slugKey()).collect(Collectors.toSet());
  }

  /**
   * Caches a whole listing of the token's repositories (each one as {@link #remember} would) and
   * that the listing was made, for {@code lifetime}.
   */
  @Transactional
  void rememberListing(
      String tokenDigest, Map<RepositorySlug, Permission> listed, Instant now, Duration lifetime) {
    // One statement for the whole listing (a user of a large organisation sees thousands).
    Map<String, Permission> byKey = new LinkedHashMap<>();
    listed.forEach(
        (repository, permission) -> byKey.merge(repository.key(), permission, Permission::or));
    RepoAccess.getEntityManager()
        .createNativeQuery(
            """
            INSERT INTO token_repo_access
              (token_digest, slug_key, permission, checked_at, expires_at)
            SELECT ?1, listed.slug_key, listed.permission, ?4, ?5
            FROM unnest(CAST(?2 AS text[]), CAST(?3 AS text[])) AS listed(slug_key, permission)
            ON CONFLICT (token_digest, slug_key) DO UPDATE
              SET permission = EXCLUDED.permission,
                  checked_at = EXCLUDED.checked_at,
                  expires_at = EXCLUDED.expires_at
            """)
        .setParameter(1, tokenDigest)
        .setParameter(2, PostgresArrays.textArray(byKey.keySet()))
        .setParameter(
            3, PostgresArrays.textArray(byKey.values().stream().map(Permission::name).toList()))
        .setParameter(4, now)
        .setParameter(5, now.plus(lifetime))
        .executeUpdate();
    RepoAccess.getEntityManager()
        .createNativeQuery(
            """
            INSERT INTO token_repo_listing (token_digest, checked_at, expires_at)
            VALUES (?1, ?2, ?3)
            ON CONFLICT (token_digest) DO UPDATE
              SET checked_at = EXCLUDED.checked_at, expires_at = EXCLUDED.expires_at
            """)
        .setParameter(1, tokenDigest)
        .setParameter(2, now)
        .setParameter(3, now.plus(lifetime))
        .executeUpdate();
  }

  /**
   * Deletes every expired row; returns how many of the permissions. The previous release's cache,
   * keyed by user ({@code repo_access}, {@code repo_listing}), is emptied the same way once no
   * replica of that release fills it any more.
   */
  @Transactional
  long expire(Instant now) {
    for (String table : List.of("token_repo_listing", "repo_listing", "repo_access")) {
      RepoAccess.getEntityManager()
          .createNativeQuery("DELETE FROM " + table + " WHERE expires_at <= ?1")
          .setParameter(1, now)
          .executeUpdate();
    }
    return RepoAccess.delete("expiresAt <= ?1", now);
  }
}
