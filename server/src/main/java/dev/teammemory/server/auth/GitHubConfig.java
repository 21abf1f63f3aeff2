package dev.teammemory.server.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code tmem.auth.github.*}: the GitHub (or GitHub Enterprise Server) OAuth App that developers
 * log in with. Without a client id the server offers no GitHub login and accepts no GitHub token.
 */
@ConfigMapping(prefix = "tmem.auth.github")
public interface GitHubConfig {

  /** {@code TMEM_AUTH_GITHUB_CLIENT_ID}: the OAuth App's client id (device flow enabled). */
  Optional<String> clientId();

  /** {@code TMEM_AUTH_GITHUB_URL}: where people sign in; a GitHub Enterprise Server's own URL. */
  @WithDefault("https://github.com")
  String url();

  /**
   * {@code TMEM_AUTH_GITHUB_API_URL}: the REST API; {@code https://HOST/api/v3} on GHES. Its
   * default is in {@code application.properties}, where quarkus-oidc's user endpoint is built from
   * it.
   */
  String apiUrl();

  /**
   * {@code TMEM_AUTH_GITHUB_SCOPES}: {@code repo} lets the server read private repositories'
   * permissions.
   */
  @WithDefault("repo")
  List<String> scopes();

  /**
   * {@code TMEM_AUTH_GITHUB_CACHE_TTL}: how long a verified token and a repository permission are
   * trusted before GitHub is asked again, so a revoked token or permission stops working within
   * this time. Its default (3 minutes) is in {@code application.properties}, shared with
   * quarkus-oidc's token cache.
   */
  Duration cacheTtl();

  /** {@code TMEM_AUTH_GITHUB_TIMEOUT}: how long one call to GitHub may take before it is a 503. */
  @WithDefault("10s")
  Duration timeout();

  /** Whether GitHub tokens are accepted: a client id is configured. */
  default boolean enabled() {
    return clientId().filter(id -> !id.isBlank()).isPresent();
  }

  /** {@link #url()} without a trailing slash, ready to have paths appended. */
  default String webBase() {
    return withoutTrailingSlash(url());
  }

  /** {@link #apiUrl()} without a trailing slash, ready to have paths appended. */
  default String apiBase() {
    return withoutTrailingSlash(apiUrl());
  }

  private static String withoutTrailingSlash(String url) {
    String trimmed = url.strip();
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed;
  }
}
