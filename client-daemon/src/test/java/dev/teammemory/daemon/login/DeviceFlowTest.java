package dev.teammemory.daemon.login;

import static dev.teammemory.daemon.login.FakeGitHub.granted;
import static dev.teammemory.daemon.login.FakeGitHub.pending;
import static dev.teammemory.daemon.login.FakeGitHub.slowDown;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.teammemory.daemon.command.UserError;
import dev.teammemory.protocol.AuthConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DeviceFlowTest {

  private FakeGitHub github;
  private GitHubOAuth oauth;
  private final RecordingSleeper sleeper =
      new RecordingSleeper(Instant.parse("2026-03-02T09:00:00Z"));
  private final StringWriter instructions = new StringWriter();

  @BeforeEach
  void startGitHub() throws IOException {
    github = new FakeGitHub();
    oauth = new GitHubOAuth("tmem/test");
  }

  @AfterEach
  void stopGitHub() throws IOException {
    oauth.close();
    github.close();
  }

  private TokenGrant authorise() {
    AuthConfig.GitHub config =
        new AuthConfig.GitHub(
            FakeGitHub.CLIENT_ID,
            github.deviceCodeUrl(),
            github.tokenUrl(),
            github.apiUrl(),
            List.of("repo"));
    return new DeviceFlow(oauth, sleeper, sleeper.clock())
        .authorise(config, new PrintWriter(instructions, true));
  }

  @Test
  void pollsAtTheIntervalGitHubSetsUntilTheUserHasEnteredTheCode() {
    github.answerTokenRequestsWith(pending(), pending(), granted(FakeGitHub.TOKEN));

    TokenGrant grant = authorise();

    assertThat(grant.accessToken()).isEqualTo(FakeGitHub.TOKEN);
    assertThat(grant.scopes()).containsExactly("repo");
    assertThat(grant.expiresIn()).isEmpty();
    assertThat(sleeper.sleeps()).containsOnly(Duration.ofSeconds(5)).hasSize(3);
  }

  @Test
  void slowDownTakesTheIntervalGitHubSendsOrAddsFiveSeconds() {
    github.answerTokenRequestsWith(
        slowDown(12),
        FakeGitHub.error("slow_down", "Too many requests."),
        granted(FakeGitHub.TOKEN));

    authorise();

    assertThat(sleeper.sleeps())
        .containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(12), Duration.ofSeconds(17));
  }

  @Test
  void aSlowDownWithAShorterIntervalStillSlowsDown() {
    github.answerTokenRequestsWith(slowDown(3), granted(FakeGitHub.TOKEN));

    authorise();

    assertThat(sleeper.sleeps()).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10));
  }

  @Test
  void aGitHubThatStaysUnreachableEndsTheWaitAfterThreeFailuresInARow() {
    github.answerTokenRequestsWith(
        FakeGitHub.json(502, "<html>Bad Gateway</html>"),
        pending(),
        FakeGitHub.json(502, "<html>Bad Gateway</html>"),
        FakeGitHub.json(503, "<html>Unavailable</html>"),
        FakeGitHub.json(502, "<html>Bad Gateway</html>"));

    assertThatThrownBy(this::authorise)
        .isInstanceOf(UserError.class)
        .hasMessage(
            "lost contact with GitHub while waiting for the authorisation: POST "
                + github.tokenUrl()
                + " answered 502; check your network and run `tmem login` again");
    assertThat(github.tokenRequests()).hasSize(5);
  }

  @Test
  void anUnknownOAuthErrorIsNamedWithGitHubsDescription() {
    github.answerTokenRequestsWith(
        FakeGitHub.error("unsupported_grant_type", "The grant type is not supported."));

    assertThatThrownBy(this::authorise)
        .isInstanceOf(UserError.class)
        .hasMessage(
            "GitHub refused the login (unsupported_grant_type: The grant type is not supported.);"
                + " nothing was stored. Run `tmem login` again");
  }

  @Test
  void theDeviceCodeNeverAppearsInTheInstructions() {
    github.answerTokenRequestsWith(granted(FakeGitHub.TOKEN));

    authorise();

    assertThat(instructions.toString())
        .contains(FakeGitHub.USER_CODE)
        .doesNotContain(FakeGitHub.DEVICE_CODE);
  }
}
