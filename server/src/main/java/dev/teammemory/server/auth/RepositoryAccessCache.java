package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Permissions a remote identity provider reported, cached in PostgreSQL ({@code repo_access}) so
 * that every replica shares them and a provider's rate limit is not spent on every request. The
 * static tokens file needs no cache; the GitHub implementation of {@link RepositoryAccess} will
 * consult this before asking GitHub.
 */
@ApplicationScoped
class RepositoryAccessCache {

  /** The cached permission, unless there is none or it expired. */
  @Transactional
  Optional<Permission> lookup(Caller caller, RepositorySlug repository, Instant now) {
    RepoAccess cached = RepoAccess.findById(new RepoAccess.Id(caller.user(), repository.key()));
    return cached == null || !cached.expiresAt.isAfter(now)
        ? Optional.empty()
        : Optional.of(cached.permission);
  }

  /** Caches a permission the provider just reported, for {@code lifetime}. */
  @Transactional
  void remember(
      Caller caller,
      RepositorySlug repository,
      Permission permission,
      Instant now,
      Duration lifetime) {
    requireNonNull(permission, "permission is null");
    RepoAccess.Id id = new RepoAccess.Id(caller.user(), repository.key());
    RepoAccess cached = RepoAccess.findById(id);
    boolean created = cached == null;
    if (created) {
      cached = new RepoAccess();
      cached.id = id;
    }
    cached.permission = permission;
    cached.checkedAt = now;
    cached.expiresAt = now.plus(lifetime);
    if (created) {
      cached.persist(); // after the fields: persist takes the row's state as it is now
    }
  }

  /** Deletes every expired row; returns how many. */
  @Transactional
  long expire(Instant now) {
    return RepoAccess.delete("expiresAt <= ?1", now);
  }
}
