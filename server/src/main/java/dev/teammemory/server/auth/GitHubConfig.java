package dev.teammemory.server.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * {@code tmem.auth.github.*}: the GitHub (or GitHub Enterprise Server) OAuth App that developers
 * log in with. Without a client id the server offers no GitHub login.
 */
@ConfigMapping(prefix = "tmem.auth.github")
interface GitHubConfig {

  /** {@code TMEM_AUTH_GITHUB_CLIENT_ID}: the OAuth App's client id (device flow enabled). */
  Optional<String> clientId();

  /** {@code TMEM_AUTH_GITHUB_URL}: where people sign in; a GitHub Enterprise Server's own URL. */
  @WithDefault("https://github.com")
  String url();

  /** {@code TMEM_AUTH_GITHUB_API_URL}: the REST API; {@code https://HOST/api/v3} on GHES. */
  @WithDefault("https://api.github.com")
  String apiUrl();

  /**
   * {@code TMEM_AUTH_GITHUB_SCOPES}: {@code repo} lets the server read private repositories'
   * permissions.
   */
  @WithDefault("repo")
  List<String> scopes();
}
