package dev.teammemory.daemon.login;

import static dev.teammemory.daemon.login.FakeGitHub.grantedExpiring;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredLoginTest {

  private static final String SERVER = "https://team-memory.example.com";
  private static final Instant NOW = Instant.parse("2026-03-02T09:00:00Z");

  @TempDir Path root;
  private FakeGitHub github;
  private CredentialStore store;

  @BeforeEach
  void start() throws IOException {
    github = new FakeGitHub();
    store = new CredentialStore(root.resolve("state/tmem"));
  }

  @AfterEach
  void stop() throws IOException {
    github.close();
  }

  private StoredLogin storedLogin() {
    return new StoredLogin(SERVER + "/", store, Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private Credential appToken(
      String accessToken, Duration expiresIn, Optional<Instant> refreshUntil) {
    return new Credential(
        SERVER,
        "octocat",
        accessToken,
        Optional.of("ghr_oldRefresh"),
        Optional.of(NOW.plus(expiresIn)),
        refreshUntil,
        NOW.minus(Duration.ofHours(8)),
        FakeGitHub.CLIENT_ID,
        github.tokenUrl());
  }

  private Credential oauthAppToken(String accessToken) {
    return new Credential(
        SERVER,
        "octocat",
        accessToken,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        NOW,
        FakeGitHub.CLIENT_ID,
        github.tokenUrl());
  }

  @Test
  void theStoredTokenOfTheServerIsUsed() throws IOException {
    store.save(oauthAppToken("gho_stored"));

    assertThat(storedLogin().token()).contains("gho_stored");
    assertThat(new StoredLogin("https://other.example.com", store, Clock.systemUTC()).token())
        .isEmpty();
  }

  @Test
  void withoutAStoredLoginThereIsNoToken() {
    assertThat(storedLogin().token()).isEmpty();
  }

  @Test
  void aTokenThatExpiresWithinFiveMinutesIsRefreshedAndTheNewOneSaved() throws IOException {
    store.save(
        appToken("ghu_old", Duration.ofMinutes(4), Optional.of(NOW.plus(Duration.ofDays(100)))));
    github.answerTokenRequestsWith(grantedExpiring("ghu_new", "ghr_newRefresh"));

    assertThat(storedLogin().token()).contains("ghu_new");

    assertThat(FakeGitHub.form(github.tokenRequests().getFirst()))
        .containsExactly(
            Map.entry("client_id", FakeGitHub.CLIENT_ID),
            Map.entry("grant_type", "refresh_token"),
            Map.entry("refresh_token", "ghr_oldRefresh"));
    Credential saved = store.find(SERVER).orElseThrow();
    assertThat(saved.accessToken()).isEqualTo("ghu_new");
    assertThat(saved.refreshToken()).contains("ghr_newRefresh");
    assertThat(saved.expiresAt()).contains(NOW.plus(Duration.ofHours(8)));
    assertThat(saved.refreshExpiresAt()).contains(NOW.plusSeconds(15897600));
    assertThat(saved.savedAt()).isEqualTo(NOW);
    assertThat(storedLogin().token()).contains("ghu_new");
    assertThat(github.tokenRequests()).hasSize(1);
  }

  @Test
  void aTokenFarFromItsExpiryIsUsedAsItIs() throws IOException {
    store.save(appToken("ghu_fresh", Duration.ofMinutes(6), Optional.empty()));

    assertThat(storedLogin().token()).contains("ghu_fresh");
    assertThat(github.tokenRequests()).isEmpty();
  }

  @Test
  void aRefusedRefreshKeepsUsingTheOldTokenWhileItLasts() throws IOException {
    store.save(appToken("ghu_old", Duration.ofMinutes(2), Optional.empty()));
    github.answerTokenRequestsWith(
        FakeGitHub.error("bad_refresh_token", "The refresh token passed is incorrect or expired."));

    assertThat(storedLogin().token()).contains("ghu_old");
    assertThat(store.find(SERVER).orElseThrow().accessToken()).isEqualTo("ghu_old");
  }

  @Test
  void anExpiredTokenWhoseRefreshFailsGivesNoToken() throws IOException {
    store.save(appToken("ghu_old", Duration.ofMinutes(-1), Optional.empty()));
    github.answerTokenRequestsWith(
        FakeGitHub.error("bad_refresh_token", "The refresh token passed is incorrect or expired."));

    assertThat(storedLogin().token()).isEmpty();
  }

  @Test
  void anExpiredRefreshTokenIsNotSentToGitHub() throws IOException {
    store.save(appToken("ghu_old", Duration.ofMinutes(-1), Optional.of(NOW.minusSeconds(1))));

    assertThat(storedLogin().token()).isEmpty();
    assertThat(github.tokenRequests()).isEmpty();
  }

  @Test
  void tmemTokenOverridesTheStoredLogin() throws IOException {
    store.save(oauthAppToken("ghu_stored"));
    Map<String, String> environment =
        Map.of("XDG_STATE_HOME", root.resolve("state").toString(), "TMEM_TOKEN", " ci-token ");

    assertThat(StoredLogin.tokens(SERVER, environment).token()).contains("ci-token");
    assertThat(
            StoredLogin.tokens(SERVER, Map.of("XDG_STATE_HOME", root.resolve("state").toString()))
                .token())
        .contains("ghu_stored");
  }

  @Test
  void theServerConnectionOfTheSyncCommandsUsesTheStoredLogin() throws IOException {
    store.save(oauthAppToken("ghu_stored"));
    Map<String, String> environment =
        Map.of("XDG_STATE_HOME", root.resolve("state").toString(), "TMEM_SERVER_URL", SERVER + "/");

    ServerConnection connection = ServerConnection.fromEnvironment(environment).requireToken();

    assertThat(connection.tokens().token()).contains("ghu_stored");
  }
}
