package dev.teammemory.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class RepositoryAccessCacheTest {

  @Inject RepositoryAccessCache cache;
  @Inject AccessCacheExpiryJob job;

  private final String caller = TokenDigest.of("token-" + UUID.randomUUID());
  private final RepositorySlug repository = new RepositorySlug("Acme", "Widgets");

  @Test
  void remembersAPermissionUntilItExpires() {
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    cache.remember(caller, repository, Permission.READ, now, Duration.ofMinutes(5));

    assertThat(cache.lookup(caller, new RepositorySlug("acme", "widgets"), now.plusSeconds(60)))
        .contains(Permission.READ);
    assertThat(cache.lookup(caller, repository, now.plus(Duration.ofMinutes(5)))).isEmpty();
    assertThat(cache.lookup(TokenDigest.of("someone-else"), repository, now)).isEmpty();

    cache.remember(caller, repository, Permission.WRITE, now, Duration.ofMinutes(5));
    assertThat(cache.lookup(caller, repository, now)).contains(Permission.WRITE);
  }

  @Test
  void expiryDeletesOnlyExpiredRows() {
    Instant now = Instant.now();
    String stale = TokenDigest.of("stale-" + UUID.randomUUID());
    cache.remember(
        stale, repository, Permission.WRITE, now.minusSeconds(600), Duration.ofMinutes(5));
    cache.remember(caller, repository, Permission.READ, now, Duration.ofMinutes(5));

    job.expire();

    assertThat(cache.lookup(stale, repository, now.minusSeconds(500))).isEmpty();
    assertThat(cache.lookup(caller, repository, now)).contains(Permission.READ);
    assertThat(cache.expire(now.minusSeconds(1))).isZero();
    assertThat(cache.expire(now.plus(Duration.ofMinutes(6)))).isPositive();
    assertThat(cache.lookup(caller, repository, now)).isEmpty();
  }
}
