package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.sync.TokenSource;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;
import okhttp3.HttpUrl;

/**
 * The token {@code tmem login} stored for one server, refreshed shortly before it expires. The file
 * is read at every call (it is small), so a new {@code tmem login} reaches a running daemon at its
 * next request.
 *
 * <p>A GitHub App user token lives 8 hours; it is refreshed when it expires within 5 minutes, and
 * the new token (and GitHub's new, single-use refresh token) is saved before it is used. When the
 * refresh fails the old token is used while it lasts; after that there is no token, and the
 * commands say to run {@code tmem login}.
 */
public final class StoredLogin implements TokenSource {

  static final Duration REFRESH_MARGIN = Duration.ofMinutes(5);
  private static final Logger LOG = Logger.getLogger(StoredLogin.class.getName());

  private final String server;
  private final CredentialStore store;
  private final Clock clock;
  private GitHubOAuth oauth;

  StoredLogin(String server, CredentialStore store, Clock clock) {
    this.server = ServerUrl.normalise(requireNonNull(server, "server is null"));
    this.store = requireNonNull(store, "store is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * {@code TMEM_TOKEN} when it is set (CI, headless machines), else the stored login for the
   * server.
   */
  public static TokenSource tokens(String server, Map<String, String> environment) {
    return TokenSource.firstOf(
        TokenSource.environment(environment),
        new StoredLogin(server, new CredentialStore(StateHome.of(environment)), Clock.systemUTC()));
  }

  /**
   * The servers {@code tmem login} stored a login for, in the order of their first login; empty
   * when there are none or the file cannot be read (then {@link #token()} says why).
   */
  public static List<String> servers(Map<String, String> environment) {
    try {
      return new CredentialStore(StateHome.of(environment))
          .all().stream().map(Credential::server).toList();
    } catch (IOException e) {
      LOG.warning("cannot read the stored logins: " + e.getMessage() + "; run `tmem login` again");
      return List.of();
    }
  }

  /**
   * The GitHub hosts of the stored logins (where their tokens were issued: github.com, or a GitHub
   * Enterprise Server), so that remotes on those hosts are recognised as GitHub repositories.
   */
  public static List<String> githubHosts(Map<String, String> environment) {
    try {
      return new CredentialStore(StateHome.of(environment))
          .all().stream()
              .map(credential -> URI.create(credential.tokenUrl()).getHost())
              .filter(host -> host != null && !host.isEmpty())
              .map(host -> host.toLowerCase(Locale.ROOT))
              .distinct()
              .toList();
    } catch (IOException | IllegalArgumentException e) {
      return List.of(); // token() reports an unreadable file where it matters
    }
  }

  @Override
  public Optional<String> token() {
    Optional<Credential> stored;
    try {
      stored = store.find(server);
    } catch (IOException e) {
      LOG.warning("cannot read the stored logins: " + e.getMessage() + "; run `tmem login` again");
      return Optional.empty();
    }
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    if (!stored.get().expiresWithin(REFRESH_MARGIN, clock.instant())) {
      return Optional.of(stored.get().accessToken());
    }
    return refreshed();
  }

  @Override
  public String describe() {
    return "a stored login";
  }

  private synchronized Optional<String> refreshed() {
    try {
      return store.locked(
          () -> {
            // Read again under the lock: another thread or process may have refreshed meanwhile,
            // and GitHub's refresh tokens work once.
            Optional<Credential> current = store.find(server);
            if (current.isEmpty()) {
              return Optional.empty();
            }
            Credential credential = current.get();
            Instant now = clock.instant();
            if (!credential.expiresWithin(REFRESH_MARGIN, now)) {
              return Optional.of(credential.accessToken());
            }
            if (!credential.refreshable(now)
                || credential.clientId().isBlank()
                || HttpUrl.parse(credential.tokenUrl()) == null) {
              LOG.warning(
                  "the GitHub login for "
                      + server
                      + " expires and cannot be refreshed: run `tmem login --server "
                      + server
                      + "`");
              return unexpired(credential, now);
            }
            GitHubOAuth.TokenAnswer answer =
                oauth()
                    .refresh(
                        credential.tokenUrl(),
                        credential.clientId(),
                        credential.refreshToken().orElseThrow());
            return switch (answer) {
              case GitHubOAuth.TokenAnswer.Granted granted -> {
                store.save(credential.refreshed(granted.grant(), clock.instant()));
                yield Optional.of(granted.grant().accessToken());
              }
              case GitHubOAuth.TokenAnswer.Refused refused -> {
                LOG.warning(
                    "GitHub refused to refresh the login for "
                        + server
                        + " ("
                        + refused.error()
                        + "): run `tmem login --server "
                        + server
                        + "`");
                yield unexpired(credential, now);
              }
              case GitHubOAuth.TokenAnswer.Unreachable unreachable -> {
                LOG.warning(
                    "cannot refresh the GitHub login for "
                        + server
                        + ": "
                        + unreachable.reason()
                        + "; retrying at the next request");
                yield unexpired(credential, now);
              }
              case GitHubOAuth.TokenAnswer.Pending pending -> unexpired(credential, now);
              case GitHubOAuth.TokenAnswer.SlowDown slowDown -> unexpired(credential, now);
            };
          });
    } catch (IOException e) {
      LOG.warning("cannot refresh the stored login for " + server + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  private static Optional<String> unexpired(Credential credential, Instant now) {
    return credential.expired(now) ? Optional.empty() : Optional.of(credential.accessToken());
  }

  private GitHubOAuth oauth() {
    if (oauth == null) {
      oauth = new GitHubOAuth(ServerConnection.userAgent());
    }
    return oauth;
  }
}
