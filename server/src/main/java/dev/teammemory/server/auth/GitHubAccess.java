package dev.teammemory.server.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * GitHub users' repository permissions: from the cache while it is fresh, else from GitHub, then
 * cached for {@code TMEM_AUTH_GITHUB_CACHE_TTL}. The cache is keyed by the token (its SHA-256), not
 * the user: GitHub answers for a token, and a user's narrower token (a fine-grained one, or one an
 * organisation's SSO has not authorised) must never borrow what a broader token of theirs was told.
 * Every replica shares the cache, so a daemon costs GitHub one call per repository every few
 * minutes. Requests that miss the cache together wait for one call to GitHub instead of each making
 * their own.
 */
@ApplicationScoped
class GitHubAccess {

  private final RepositoryAccessCache cache;
  private final GitHubRepositories repositories;
  private final GitHubConfig config;
  private final GitHubMetrics metrics;
  private final ConcurrentMap<Lookup, CompletableFuture<Permission>> inFlight =
      new ConcurrentHashMap<>();

  /** One token's question about one repository. */
  private record Lookup(String tokenDigest, String repositoryKey) {}

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

  /** The access of the token; the token stays in here, and only its digest is kept. */
  RepositoryAccess of(String token) {
    String digest = TokenDigest.of(token);
    return new RepositoryAccess() {
      @Override
      public Permission permission(RepositorySlug repository) {
        return GitHubAccess.this.permission(digest, token, repository);
      }

      @Override
      public Visibility visible() {
        return new Visibility.Some(readable(digest, token), Set.of());
      }
    };
  }

  /**
   * The keys of the repositories the token may read: from the cache while GitHub's listing of them
   * ({@code GET /user/repos}) is fresh, else listed again and cached, each repository as if it had
   * been asked about alone.
   */
  private Set<String> readable(String digest, String token) {
    Instant now = Instant.now();
    if (cache.listingFresh(digest, now)) {
      metrics.permissionLookup(true);
      return cache.readableKeys(digest, now);
    }
    metrics.permissionLookup(false);
    Map<RepositorySlug, Permission> listed = repositories.readable(token);
    cache.rememberListing(digest, listed, now, config.cacheTtl());
    return cache.readableKeys(digest, now);
  }

  private Permission permission(String digest, String token, RepositorySlug repository) {
    Instant now = Instant.now();
    Optional<Permission> cached = cache.lookup(digest, repository, now);
    metrics.permissionLookup(cached.isPresent());
    if (cached.isPresent()) {
      return cached.get();
    }
    Lookup lookup = new Lookup(digest, repository.key());
    CompletableFuture<Permission> mine = new CompletableFuture<>();
    CompletableFuture<Permission> running = inFlight.putIfAbsent(lookup, mine);
    if (running != null) {
      return answerOf(running);
    }
    try {
      Permission reported = repositories.permission(token, repository);
      cache.remember(digest, repository, reported, now, config.cacheTtl());
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
