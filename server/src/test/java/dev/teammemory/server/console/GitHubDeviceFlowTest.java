package dev.teammemory.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.server.auth.GitHubConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GitHub's device flow as the console speaks it, against a real HTTP server in GitHub's shapes. */
class GitHubDeviceFlowTest {

  private final BlockingQueue<String> tokenAnswers = new LinkedBlockingQueue<>();
  private final BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
  private MockWebServer gitHub;
  private GitHubDeviceFlow flow;

  @BeforeEach
  void start() throws Exception {
    gitHub = new MockWebServer();
    gitHub.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            bodies.add(request.getUrl().encodedPath() + " " + request.getBody().utf8());
            String path = request.getUrl().encodedPath();
            if (path.equals("/login/device/code")) {
              return json(
                  "{\"device_code\":\"3584d83530557fdd1f46af8289938c8ef79f9dc5\","
                      + "\"user_code\":\"WDJB-MJHT\","
                      + "\"verification_uri\":\"https://github.com/login/device\","
                      + "\"expires_in\":900,\"interval\":5}");
            }
            if (path.equals("/login/oauth/access_token")) {
              String answer = tokenAnswers.poll();
              return json(answer == null ? "{\"error\":\"authorization_pending\"}" : answer);
            }
            return new MockResponse.Builder().code(404).build();
          }
        });
    gitHub.start();
    flow = new GitHubDeviceFlow(config(gitHub.url("/").toString()));
  }

  @AfterEach
  void stop() {
    gitHub.close();
  }

  @Test
  void startsWithTheClientIdAndScopesAndShowsTheCodeAndLink() throws Exception {
    GitHubDeviceFlow.Started started = flow.start().orElseThrow();
    assertThat(started.userCode()).isEqualTo("WDJB-MJHT");
    assertThat(started.verificationUri()).isEqualTo("https://github.com/login/device");
    assertThat(started.interval()).isEqualTo(5);
    assertThat(started.expiresIn()).isEqualTo(900);
    assertThat(bodies.take())
        .startsWith("/login/device/code ")
        .contains("client_id=Iv1.console0test")
        .contains("scope=repo");
  }

  @Test
  void pollsUntilGitHubHandsOverTheToken() throws Exception {
    assertThat(flow.poll("3584d8")).isInstanceOf(GitHubDeviceFlow.Poll.Pending.class);
    tokenAnswers.add("{\"error\":\"slow_down\",\"interval\":10}");
    assertThat(flow.poll("3584d8")).isEqualTo(new GitHubDeviceFlow.Poll.SlowDown(10));
    tokenAnswers.add(
        "{\"access_token\":\"gho_16C7e42F292c6912E7710c838347Ae178B4a\",\"token_type\":\"bearer\",\"scope\":\"repo\"}");
    assertThat(flow.poll("3584d8"))
        .isEqualTo(new GitHubDeviceFlow.Poll.Token("gho_16C7e42F292c6912E7710c838347Ae178B4a"));
    bodies.take();
    bodies.take();
    assertThat(bodies.take())
        .contains("device_code=3584d8")
        .contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code");
  }

  @Test
  void aDeclinedOrExpiredSignInEndsInWords() throws Exception {
    tokenAnswers.add("{\"error\":\"access_denied\"}");
    assertThat(flow.poll("x"))
        .isEqualTo(new GitHubDeviceFlow.Poll.Ended("the sign-in was declined at GitHub"));
    tokenAnswers.add("{\"error\":\"expired_token\"}");
    assertThat(flow.poll("x"))
        .isEqualTo(
            new GitHubDeviceFlow.Poll.Ended("the code expired before it was entered at GitHub"));
  }

  private static MockResponse json(String body) {
    return new MockResponse.Builder()
        .code(200)
        .addHeader("Content-Type", "application/json")
        .body(body)
        .build();
  }

  private static GitHubConfig config(String webUrl) {
    return new GitHubConfig() {
      @Override
      public Optional<String> clientId() {
        return Optional.of("Iv1.console0test");
      }

      @Override
      public String url() {
        return webUrl;
      }

      @Override
      public String apiUrl() {
        return webUrl + "api/v3";
      }

      @Override
      public List<String> scopes() {
        return List.of("repo");
      }

      @Override
      public Duration cacheTtl() {
        return Duration.ofMinutes(3);
      }

      @Override
      public Duration timeout() {
        return Duration.ofSeconds(10);
      }
    };
  }
}
