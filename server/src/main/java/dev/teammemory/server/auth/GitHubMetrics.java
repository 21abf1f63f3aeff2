package dev.teammemory.server.auth;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * What GitHub costs and how it answers, on {@code /q/metrics}: {@code tmem_github_calls_total} by
 * {@code endpoint} ({@code user}, {@code repository}, {@code repositories}: the user's listing) and
 * {@code outcome} ({@code ok}; {@code refused}: GitHub answered that the token or user may not;
 * {@code unavailable}: it did not answer, failed, or its rate limit is spent), {@code
 * tmem_github_token_checks_total} (every GitHub token verified; those that did not become a {@code
 * user} call were answered by the token cache) and {@code tmem_github_permission_lookups_total} by
 * {@code result} ({@code hit} in {@code repo_access}, or {@code miss}, which asks GitHub). Every
 * label set is exported at 0 from the start, so that a fresh server's panels and alerts read 0
 * rather than "No data".
 */
@Startup
@ApplicationScoped
class GitHubMetrics {

  static final String USER = "user";
  static final String REPOSITORY = "repository";
  static final String REPOSITORIES = "repositories";
  static final String OK = "ok";
  static final String REFUSED = "refused";
  static final String UNAVAILABLE = "unavailable";

  private final MeterRegistry registry;
  private final Counter tokenChecks;

  @Inject
  GitHubMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.tokenChecks =
        Counter.builder("tmem.github.token.checks")
            .description("GitHub tokens verified, from quarkus-oidc's token cache or by GitHub")
            .register(registry);
    for (String endpoint : List.of(USER, REPOSITORY, REPOSITORIES)) {
      for (String outcome : List.of(OK, REFUSED, UNAVAILABLE)) {
        calls(endpoint, outcome);
      }
    }
    lookups(true);
    lookups(false);
  }

  void call(String endpoint, String outcome) {
    calls(endpoint, outcome).increment();
  }

  void tokenCheck() {
    tokenChecks.increment();
  }

  void permissionLookup(boolean cached) {
    lookups(cached).increment();
  }

  private Counter calls(String endpoint, String outcome) {
    return registry.counter("tmem.github.calls", "endpoint", endpoint, "outcome", outcome);
  }

  private Counter lookups(boolean cached) {
    return registry.counter("tmem.github.permission.lookups", "result", cached ? "hit" : "miss");
  }
}
