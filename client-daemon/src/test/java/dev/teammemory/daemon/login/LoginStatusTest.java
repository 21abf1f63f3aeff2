package dev.teammemory.daemon.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoginStatusTest {

  private static final Instant NOW = Instant.parse("2026-03-02T09:00:00Z");

  @TempDir Path stateHome;

  private void store(String server, Optional<Duration> expiresIn, Optional<Duration> refreshFor)
      throws IOException {
    new CredentialStore(stateHome)
        .save(
            new Credential(
                server,
                "octocat",
                "gho_token",
                refreshFor.map(duration -> "ghr_refresh"),
                expiresIn.map(NOW::plus),
                refreshFor.map(NOW::plus),
                NOW,
                "Iv1.client",
                "https://github.com/login/oauth/access_token"));
  }

  private java.util.List<String> words(Map<String, String> environment) {
    return LoginStatus.of(environment, stateHome, NOW).stream().map(LoginStatus::words).toList();
  }

  @Test
  void anOAuthAppLoginDoesNotExpire() throws IOException {
    store("https://team-memory.example.com", Optional.empty(), Optional.empty());

    assertThat(words(Map.of()))
        .containsExactly(
            "logged in to https://team-memory.example.com as octocat (stored login, does not expire)");
  }

  @Test
  void aGitHubAppLoginShowsItsExpiryAndUntilWhenItIsRefreshed() throws IOException {
    store(
        "https://team-memory.example.com",
        Optional.of(Duration.ofHours(8)),
        Optional.of(Duration.ofDays(10)));

    assertThat(words(Map.of()))
        .containsExactly(
            "logged in to https://team-memory.example.com as octocat (stored login, expires"
                + " 2026-03-02T17:00:00Z, refreshed automatically until 2026-03-12T09:00:00Z)");
  }

  @Test
  void aLoginThatCanNoLongerBeRefreshedSaysToLogInAgain() throws IOException {
    store("https://team-memory.example.com", Optional.of(Duration.ofHours(-1)), Optional.empty());

    assertThat(words(Map.of()))
        .containsExactly(
            "login to https://team-memory.example.com as octocat expired 2026-03-02T08:00:00Z: run"
                + " `tmem login --server https://team-memory.example.com`");
  }

  @Test
  void tmemTokenComesFirstAndTheStoredLoginItOverridesSaysSo() throws IOException {
    store("https://team-memory.example.com", Optional.empty(), Optional.empty());

    assertThat(
            words(
                Map.of(
                    "TMEM_TOKEN", "ci-token",
                    "TMEM_SERVER_URL", "https://team-memory.example.com/")))
        .containsExactly(
            "logged in to https://team-memory.example.com (token from TMEM_TOKEN, which overrides a"
                + " stored login; its GitHub login is not looked up)",
            "logged in to https://team-memory.example.com as octocat (stored login, does not"
                + " expire; not used while TMEM_TOKEN is set)");
  }

  @Test
  void nobodyLoggedInSaysHowToLogIn() {
    assertThat(words(Map.of()))
        .containsExactly("not logged in: run `tmem login --server URL` or set TMEM_TOKEN");
  }

  @Test
  void theStatusNeverContainsTheToken() throws IOException {
    store(
        "https://team-memory.example.com",
        Optional.of(Duration.ofHours(8)),
        Optional.of(Duration.ofDays(10)));

    assertThat(LoginStatus.of(Map.of("TMEM_TOKEN", "ci-token"), stateHome, NOW).toString())
        .doesNotContain("gho_token")
        .doesNotContain("ghr_refresh")
        .doesNotContain("ci-token");
  }
}
