package dev.teammemory.server.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;

/**
 * GitHub users' repository permissions: from the {@code repo_access} cache while it is fresh, else
 * from GitHub, then cached for {@code TMEM_AUTH_GITHUB_CACHE_TTL}. Every replica shares the cache,
 * so a team of daemons costs GitHub one call per user and repository every few minutes.
 */
@ApplicationScoped
class GitHubAccess {

  private final RepositoryAccessCache cache;
  private final GitHubRepositories repositories;
  private final GitHubConfig config;

  @Inject
  GitHubAccess(RepositoryAccessCache cache, GitHubRepositories repositories, GitHubConfig config) {
    this.cache = cache;
    this.repositories = repositories;
    this.config = config;
  }

  /** The access of the GitHub user the token belongs to; the token stays in here. */
  RepositoryAccess of(Caller caller, String token) {
    return repository -> permission(caller, token, repository);
  }

  private Permission permission(Caller caller, String token, RepositorySlug repository) {
    Instant now = Instant.now();
    Optional<Permission> cached = cache.lookup(caller, repository, now);
    if (cached.isPresent()) {
      return cached.get();
    }
    Permission reported = repositories.permission(token, repository);
    cache.remember(caller, repository, reported, now, config.cacheTtl());
    return reported;
  }
}
