package dev.teammemory.server.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * GitHub users' repository permissions: from the {@code repo_access} cache while it is fresh, else
 * from GitHub, then cached for {@code TMEM_AUTH_GITHUB_CACHE_TTL}. Every replica shares the cache,
 * so a team of daemons costs GitHub one call per user and repository every few minutes. Requests
 * that miss the cache together wait for one call to GitHub instead of each making their own.
 */
@ApplicationScoped
class GitHubAccess {

  private final RepositoryAccessCache cache;
  private final GitHubRepositories repositories;
  private final GitHubConfig config;
  private final GitHubMetrics metrics;
  private final ConcurrentMap<Lookup, CompletableFuture<Permission>> inFlight =
      new ConcurrentHashMap<>();

  /** One caller's question about one repository. */
  private record Lookup(String callerId, String repositoryKey) {}

  @Inject
  GitHubAccess(
      RepositoryAccessCache cache,
      GitHubRepositories repositories,
      GitHubConfig config,
      GitHubMetrics metrics) {
    this.cache = cache;
    this.repositories = repositories;
    this.config = config;
    this.metrics = metrics;
  }

  /** The access of the GitHub user the token belongs to; the token stays in here. */
  RepositoryAccess of(Caller caller, String token) {
    return new RepositoryAccess() {
      @Override
      public Permission permission(RepositorySlug repository) {
        return GitHubAccess.this.permission(caller, token, repository);
      }

      @Override
      public List<RepositorySlug> readable(List<RepositorySlug> candidates) {
        Set<String> readable = GitHubAccess.this.readable(caller, token);
        return candidates.stream().filter(slug -> readable.contains(slug.key())).toList();
      }
    };
  }

  /**
   * The keys of the repositories the user may read: from the cache while GitHub's listing of them
   * ({@code GET /user/repos}) is fresh, else listed again and cached, each repository as if it had
   * been asked about alone.
   */
  private Set<String> readable(Caller caller, String token) {
    Instant now = Instant.now();
    if (cache.listingFresh(caller, now)) {
      metrics.permissionLookup(true);
      return cache.readableKeys(caller, now);
    }
    metrics.permissionLookup(false);
    Map<RepositorySlug, Permission> listed = repositories.readable(token);
    cache.rememberListing(caller, listed, now, config.cacheTtl());
    return cache.readableKeys(caller, now);
  }

  private Permission permission(Caller caller, String token, RepositorySlug repository) {
    Instant now = Instant.now();
    Optional<Permission> cached = cache.lookup(caller, repository, now);
    metrics.permissionLookup(cached.isPresent());
    if (cached.isPresent()) {
      return cached.get();
    }
    Lookup lookup = new Lookup(caller.id(), repository.key());
    CompletableFuture<Permission> mine = new CompletableFuture<>();
    CompletableFuture<Permission> running = inFlight.putIfAbsent(lookup, mine);
    if (running != null) {
      return answerOf(running);
    }
    try {
      Permission reported = repositories.permission(token, repository);
      cache.remember(caller, repository, reported, now, config.cacheTtl());
      mine.complete(reported);
      return reported;
    } catch (RuntimeException failure) {
      mine.completeExceptionally(failure); // the waiting requests get the same 401 or 503
      throw failure;
    } finally {
      inFlight.remove(lookup, mine);
    }
  }

  private static Permission answerOf(CompletableFuture<Permission> running) {
    try {
      return running.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw e;
    }
  }
}
