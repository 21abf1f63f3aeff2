package dev.teammemory.daemon.login;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogoutCommandTest {

  @TempDir Path root;
  private final Map<String, String> variables = new HashMap<>();
  private CredentialStore store;

  @BeforeEach
  void storeTwoLogins() throws IOException {
    variables.put("XDG_STATE_HOME", root.resolve("state").toString());
    store = new CredentialStore(root.resolve("state/tmem"));
    store.save(login("https://team-memory.example.com", "octocat"));
    store.save(login("https://other.example.com", "hubot"));
  }

  private static Credential login(String server, String githubLogin) {
    return new Credential(
        server,
        githubLogin,
        "gho_" + githubLogin,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Instant.parse("2026-03-02T09:00:00Z"),
        "Iv1.client",
        "https://github.com/login/oauth/access_token");
  }

  private LoginRun tmem(String... args) {
    return LoginRun.tmem(
        new Environment(variables, root.resolve("home"), root),
        new RecordingSleeper(Instant.EPOCH),
        args);
  }

  @Test
  void logoutDeletesTheLoginOfThatServerOnly() throws IOException {
    LoginRun run = tmem("logout", "--server", "https://team-memory.example.com/");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "logged out of https://team-memory.example.com (was octocat): the stored token is"
                + " deleted. It stays valid on GitHub until it expires or you revoke the app under"
                + " Settings → Applications\n");
    assertThat(store.all())
        .extracting(Credential::server)
        .containsExactly("https://other.example.com");
  }

  @Test
  void logoutOfTheLastServerDeletesTheFile() throws IOException {
    variables.put("TMEM_SERVER_URL", "https://team-memory.example.com");
    assertThat(tmem("logout").exitCode()).isZero();
    assertThat(tmem("logout", "--server", "https://other.example.com").exitCode()).isZero();

    assertThat(store.file()).doesNotExist();
  }

  @Test
  void logoutWhereNobodyIsLoggedInSaysSoAndSucceeds() {
    LoginRun run = tmem("logout", "--server", "https://elsewhere.example.com");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo("not logged in to https://elsewhere.example.com: nothing to delete\n");
  }

  @Test
  void logoutWarnsThatTmemTokenStillApplies() {
    variables.put("TMEM_TOKEN", "ci-token");

    LoginRun run = tmem("logout", "--server", "https://team-memory.example.com");

    assertThat(run.err())
        .isEqualTo("tmem: warning: TMEM_TOKEN is still set and is used until you unset it\n");
  }

  @Test
  void withSeveralLoginsAndNoServerNamedLogoutListsThemAndDeletesNothing() throws IOException {
    LoginRun run = tmem("logout");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "tmem: you are logged in to several servers (https://team-memory.example.com,"
                + " https://other.example.com): pass --server URL with the one to log out of\n");
    assertThat(store.all()).hasSize(2);
  }

  @Test
  void withOneLoginLogoutNeedsNoServer() throws IOException {
    store.remove("https://other.example.com");

    LoginRun run = tmem("logout");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("logged out of https://team-memory.example.com (was octocat)");
    assertThat(store.file()).doesNotExist();
  }

  @Test
  void withNoLoginAndNoServerNamedLogoutSaysThereIsNothingToDelete() throws IOException {
    store.remove("https://team-memory.example.com");
    store.remove("https://other.example.com");

    LoginRun run = tmem("logout");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo("not logged in to any server: nothing to delete\n");
  }
}
