package dev.teammemory.daemon.login;

import static dev.teammemory.daemon.login.FakeGitHub.LOGIN;
import static dev.teammemory.daemon.login.FakeGitHub.TOKEN;
import static dev.teammemory.daemon.login.FakeGitHub.error;
import static dev.teammemory.daemon.login.FakeGitHub.granted;
import static dev.teammemory.daemon.login.FakeGitHub.grantedExpiring;
import static dev.teammemory.daemon.login.FakeGitHub.pending;
import static dev.teammemory.daemon.login.FakeGitHub.slowDown;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoginCommandTest {

  private static final Instant START = Instant.parse("2026-03-02T09:00:00Z");
  private static final String INSTRUCTIONS =
      "First copy your one-time code: WDJB-MJHT\n"
          + "Then open https://github.com/login/device and enter it. Waiting for authorisation"
          + " (expires in 15 min)…\n";

  @TempDir Path root;
  private FakeGitHub github;
  private RecordingSleeper sleeper;
  private final Map<String, String> variables = new HashMap<>();
  private Path workingDirectory;

  @BeforeEach
  void startGitHub() throws IOException {
    github = new FakeGitHub();
    sleeper = new RecordingSleeper(START);
    variables.put("XDG_STATE_HOME", root.resolve("state").toString());
    workingDirectory = Files.createDirectories(root.resolve("work"));
  }

  @AfterEach
  void stopGitHub() throws IOException {
    github.close();
  }

  private LoginRun tmem(String... args) {
    return LoginRun.tmem(
        new Environment(variables, root.resolve("home"), workingDirectory), sleeper, args);
  }

  private Path credentials() {
    return root.resolve("state/tmem/credentials.json");
  }

  @Test
  void loginStoresTheTokenReadableOnlyByTheUserAndNamesTheLogin() throws IOException {
    github.answerTokenRequestsWith(pending(), granted(TOKEN));
    github.grantsReadAccessTo("acme/widgets");

    LoginRun run = tmem("login", "--server", github.serverUrl() + "/", "--repo", "acme/widgets");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).isEqualTo(INSTRUCTIONS);
    assertThat(run.out())
        .isEqualTo(
            "logged in to "
                + github.serverUrl()
                + " as octocat\n"
                + "the server accepts the login: octocat can read acme/widgets\n"
                + "token stored in "
                + credentials()
                + " (readable only by you)\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(credentials())))
        .isEqualTo("rw-------");
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(credentials().getParent())))
        .isEqualTo("rwx------");
    JsonNode stored = new ObjectMapper().readTree(credentials().toFile()).path("logins").path(0);
    assertThat(stored.path("server").asText()).isEqualTo(github.serverUrl());
    assertThat(stored.path("githubLogin").asText()).isEqualTo(LOGIN);
    assertThat(stored.path("accessToken").asText()).isEqualTo(TOKEN);
    assertThat(stored.path("savedAt").asText()).isEqualTo("2026-03-02T09:00:10Z");
    assertThat(stored.has("expiresAt")).isFalse();
    assertThat(stored.has("refreshToken")).isFalse();
    assertThat(sleeper.sleeps()).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(5));
  }

  @Test
  void loginSpeaksGitHubsDeviceFlowAndSendsTheTokenOnlyAsABearer() throws Exception {
    github.answerTokenRequestsWith(granted(TOKEN));

    assertThat(tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets").exitCode())
        .isZero();

    RecordedRequest codeRequest = github.requests("/login/device/code").getFirst();
    assertThat(codeRequest.getHeaders().get("Accept")).isEqualTo("application/json");
    assertThat(FakeGitHub.form(codeRequest))
        .containsExactly(Map.entry("client_id", FakeGitHub.CLIENT_ID), Map.entry("scope", "repo"));
    RecordedRequest poll = github.tokenRequests().getFirst();
    assertThat(poll.getHeaders().get("Accept")).isEqualTo("application/json");
    assertThat(FakeGitHub.form(poll))
        .containsExactly(
            Map.entry("client_id", FakeGitHub.CLIENT_ID),
            Map.entry("device_code", FakeGitHub.DEVICE_CODE),
            Map.entry("grant_type", "urn:ietf:params:oauth:grant-type:device_code"));
    assertThat(github.requests("/api/v3/user").getFirst().getHeaders().get("Authorization"))
        .isEqualTo("Bearer " + TOKEN);
    RecordedRequest probe = github.requests("/api/claude_code/team_memory").getFirst();
    assertThat(probe.getHeaders().get("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(probe.getUrl().encodedQuery()).isEqualTo("repo=acme%2Fwidgets&view=hashes");
    assertThat(github.requests("/api/auth/config").getFirst().getHeaders().get("Authorization"))
        .isNull();
  }

  @Test
  void slowDownMakesThePollingSlowerAsGitHubAsks() {
    github.answerTokenRequestsWith(
        pending(),
        slowDown(10),
        pending(),
        error("slow_down", "Too many requests."),
        granted(TOKEN));

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(sleeper.sleeps())
        .containsExactly(
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(10),
            Duration.ofSeconds(10),
            Duration.ofSeconds(15));
    assertThat(github.tokenRequests()).hasSize(5);
  }

  @Test
  void anExpiredDeviceCodeStopsTheLoginWithExitOneAndStoresNothing() {
    github.answerTokenRequestsWith(
        pending(), error("expired_token", "The device_code has expired."));

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            INSTRUCTIONS
                + "tmem: the one-time code WDJB-MJHT expired before it was entered; nothing was"
                + " stored. Run `tmem login` again and enter the new code within 15 min\n");
    assertThat(run.out()).isEmpty();
    assertThat(credentials()).doesNotExist();
  }

  @Test
  void aCodeNobodyEntersStopsWhenItsTimeIsUpWithoutWaitingForGitHubToSaySo() {
    github.answerDeviceCodeRequestsWith(FakeGitHub.deviceCode(12, 5));

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .contains("tmem: the one-time code WDJB-MJHT expired before it was entered");
    assertThat(github.tokenRequests()).hasSize(2);
    assertThat(credentials()).doesNotExist();
  }

  @Test
  void aDeniedAuthorisationStopsTheLoginWithExitOneAndStoresNothing() {
    github.answerTokenRequestsWith(error("access_denied", "The authorization request was denied."));

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .endsWith(
            "tmem: the authorisation was denied on GitHub; nothing was stored. Run `tmem login`"
                + " again and choose Authorize to log in\n");
    assertThat(credentials()).doesNotExist();
  }

  @Test
  void aTokenGitHubRejectsAsBadCredentialsIsNotStored() {
    github.answerTokenRequestsWith(granted("gho_revokedRightAway"));

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .endsWith(
            "tmem: GitHub rejected the new token (401 Bad credentials at "
                + github.apiUrl()
                + "/user): it was revoked, or the server's GitHub API URL does not belong to the"
                + " GitHub that issued it; nothing was stored. Run `tmem login` again, or ask your"
                + " admin to check the server's GitHub settings\n");
    assertThat(run.err()).doesNotContain("gho_revokedRightAway");
    assertThat(credentials()).doesNotExist();
  }

  @Test
  void aServerThatRejectsTheTokenIsReportedAndNothingIsStored() {
    github.answerTokenRequestsWith(granted(TOKEN));
    github.serverRejectsTokens();

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .endsWith(
            "tmem: GitHub knows you as octocat, but the server at "
                + github.serverUrl()
                + " rejects the token (401); nothing was stored. Ask your admin whether the server"
                + " trusts the GitHub it sent you to\n");
    assertThat(credentials()).doesNotExist();
  }

  @Test
  void aServerWithoutGitHubLoginSaysToUseTmemToken() {
    github.withoutGitHubLogin();

    LoginRun run = tmem("login", "--server", github.serverUrl());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "tmem: the server at "
                + github.serverUrl()
                + " does not offer GitHub login; ask your admin for a token and set TMEM_TOKEN\n");
    assertThat(github.requests("/login/device/code")).isEmpty();
  }

  @Test
  void withoutAServerLoginIsAUsageError() {
    LoginRun run = tmem("login");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("tmem: no server: pass --server URL or set TMEM_SERVER_URL\n");
  }

  @Test
  void theServerComesFromTmemServerUrlByDefault() {
    variables.put("TMEM_SERVER_URL", github.serverUrl());
    github.answerTokenRequestsWith(granted(TOKEN));

    LoginRun run = tmem("login", "--repo", "acme/widgets");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("logged in to " + github.serverUrl() + " as octocat\n");
  }

  @Test
  void aGitHubAppTokenIsStoredWithItsExpiryAndRefreshToken() throws IOException {
    github.answerTokenRequestsWith(grantedExpiring("ghu_appToken", "ghr_refreshToken"));
    github.knowsToken("ghu_appToken", LOGIN);

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).as(run.err()).isZero();
    Credential stored =
        new CredentialStore(root.resolve("state/tmem")).find(github.serverUrl()).orElseThrow();
    assertThat(stored.accessToken()).isEqualTo("ghu_appToken");
    assertThat(stored.refreshToken()).contains("ghr_refreshToken");
    assertThat(stored.expiresAt()).contains(Instant.parse("2026-03-02T17:00:05Z"));
    assertThat(stored.refreshExpiresAt())
        .contains(Instant.parse("2026-03-02T09:00:05Z").plusSeconds(15897600));
    assertThat(stored.clientId()).isEqualTo(FakeGitHub.CLIENT_ID);
    assertThat(stored.tokenUrl()).isEqualTo(github.tokenUrl());
  }

  @Test
  void theRepositoryComesFromTheOriginRemoteOnTheServersGitHubHost() throws Exception {
    git("init", "-q", workingDirectory.toString());
    git(
        "-C",
        workingDirectory.toString(),
        "remote",
        "add",
        "origin",
        "git@" + github.host() + ":acme/widgets.git");
    github.grantsReadAccessTo("acme/widgets");
    github.answerTokenRequestsWith(granted(TOKEN));

    LoginRun run = tmem("login", "--server", github.serverUrl());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("the server accepts the login: octocat can read acme/widgets\n");
  }

  @Test
  void aFolderWithoutAnOriginRemoteLogsInAndSaysWhatWasNotChecked() throws Exception {
    git("init", "-q", workingDirectory.toString());
    github.answerTokenRequestsWith(granted(TOKEN));

    LoginRun run = tmem("login", "--server", github.serverUrl());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains(
            "access not checked: "
                + workingDirectory.toRealPath()
                + " has no remote named origin; pass --repo owner/name to check your access to a"
                + " repository\n");
    assertThat(github.requests("/api/claude_code/team_memory")).isEmpty();
    assertThat(credentials()).exists();
  }

  @Test
  void loggingInAgainReplacesTheLoginForThatServerOnly() throws IOException {
    CredentialStore store = new CredentialStore(root.resolve("state/tmem"));
    store.save(
        new Credential(
            "https://other.example.com",
            "hubot",
            "gho_other",
            java.util.Optional.empty(),
            java.util.Optional.empty(),
            java.util.Optional.empty(),
            START,
            FakeGitHub.CLIENT_ID,
            github.tokenUrl()));
    github.answerTokenRequestsWith(granted("gho_first"), granted(TOKEN));
    github.knowsToken("gho_first", LOGIN);

    assertThat(tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets").exitCode())
        .isZero();
    assertThat(tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets").exitCode())
        .isZero();

    assertThat(store.all())
        .extracting(Credential::server, Credential::accessToken)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("https://other.example.com", "gho_other"),
            org.assertj.core.groups.Tuple.tuple(github.serverUrl(), TOKEN));
  }

  @Test
  void tmemTokenStillWinsAndLoginSaysSo() {
    variables.put("TMEM_TOKEN", "ci-token");
    github.answerTokenRequestsWith(granted(TOKEN));

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err())
        .endsWith(
            "tmem: warning: TMEM_TOKEN is set and is used instead of this login until you unset it\n");
  }

  @Test
  void aDisabledDeviceFlowNamesTheSettingToChange() {
    github.answerDeviceCodeRequestsWith(
        FakeGitHub.json(
            400,
            "{\"error\":\"device_flow_disabled\",\"error_description\":\"Device Flow must be explicitly enabled for this App\"}"));

    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "acme/widgets");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "tmem: the device flow is not enabled for the server's OAuth app (client id "
                + FakeGitHub.CLIENT_ID
                + "): ask your admin to enable \"Device Flow\" in the app's settings on GitHub\n");
  }

  @Test
  void anInvalidRepoIsAUsageError() {
    LoginRun run = tmem("login", "--server", github.serverUrl(), "--repo", "widgets");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo("tmem: --repo must be owner/name (a GitHub repository): widgets\n");
  }

  private static void git(String... arguments) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("git"));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }
}
