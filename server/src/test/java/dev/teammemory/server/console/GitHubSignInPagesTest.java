package dev.teammemory.server.console;

import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static dev.teammemory.server.console.ConsoleTest.csrfOf;
import static dev.teammemory.server.github.FakeGitHubResource.gitHub;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.server.Await;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Signing in to the console with GitHub's device flow, through the pages as a browser without
 * JavaScript goes through them: the sign-in form's button, the page with the code and the link that
 * refreshes itself, and the fake GitHub (GitHub's real shapes) answering the server's polls.
 */
@QuarkusTest
class GitHubSignInPagesTest {

  private static final String DEVICE_COOKIE = "tmem_console_device";
  private static final AtomicLong NEXT_USER_ID = new AtomicLong(8_100_000);

  private static final String PENDING =
      "{\"error\":\"authorization_pending\",\"error_description\":\"The authorization request is"
          + " still pending.\",\"error_uri\":\"https://docs.github.com/developers/apps/"
          + "authorizing-oauth-apps#error-codes-for-the-device-flow\"}";

  @Test
  void theDeviceFlowShowsTheCodeWaitsSlowsDownAndSignsInToTheRepository() {
    String repo = fresh("console-device");
    put(repo, entries("notes/deploys.md", "Use the canary switch."));
    long id = NEXT_USER_ID.incrementAndGet();
    String login = "octo-" + id;
    String token = "gho_device" + id + "Xy7Qw";
    gitHub().addUser(token, login, id);
    gitHub().grant(login, repo, "read");
    String deviceCode = "3584d83530557fdd1f46af8289938c8ef79" + id;
    gitHub()
        .nextDeviceFlow(
            deviceCode,
            "WDJB-MJHT",
            1,
            PENDING,
            "{\"error\":\"slow_down\",\"error_description\":\"Too many requests have been made in"
                + " the same timeframe.\",\"interval\":2}",
            "{\"access_token\":\"" + token + "\",\"token_type\":\"bearer\",\"scope\":\"repo\"}");

    String device = startDeviceFlow();
    // Each poll GitHub answered, with the page the browser got for it: the waiting page refreshes
    // at GitHub's interval, at the slower one after slow_down, and GitHub's token signs in.
    List<String> answered = new ArrayList<>();
    Response waiting = watchedWaitingPage(device, deviceCode, answered);
    assertThat(waiting.statusCode()).isEqualTo(200);
    assertThat(waiting.getHeader("Refresh")).isEqualTo("1");
    Document page = Jsoup.parse(waiting.asString());
    assertThat(page.select("strong").eachText())
        .as("the waiting page %s", waiting.asString())
        .contains("WDJB-MJHT");
    assertThat(page.select("a[href]").eachAttr("href"))
        .contains(gitHub().webUrl() + "/login/device", "/console/sign-in/github");
    assertThat(page.select("a:contains(Check now)").attr("href"))
        .isEqualTo("/console/sign-in/github");
    assertWorksWithoutInlineScript(page);

    AtomicReference<Response> last = new AtomicReference<>();
    Await.until(
        "GitHub's token to end the device flow",
        () -> {
          last.set(watchedWaitingPage(device, deviceCode, answered));
          return last.get().statusCode() != 200;
        });
    assertThat(answered).containsExactly("200 refresh 1", "200 refresh 2", "303 refresh null");
    Response signedIn = last.get();
    assertThat(signedIn.getHeader("Location")).endsWith("/console/").doesNotContain(token);
    String session = signedIn.getCookie("tmem_console");
    assertThat(session).isNotBlank().doesNotContain(token);

    List<String> forms = gitHub().deviceForms(deviceCode);
    assertThat(forms.getFirst()).contains("client_id=Iv1.test0client").contains("scope=repo");
    assertThat(forms.subList(1, forms.size()))
        .hasSize(3)
        .allSatisfy(
            form ->
                assertThat(form)
                    .contains("client_id=Iv1.test0client")
                    .contains("device_code=" + deviceCode)
                    .contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code"));

    Response repository =
        given()
            .redirects()
            .follow(false)
            .cookie("tmem_console", session)
            .get("/console/repos/" + repo);
    assertThat(repository.statusCode()).isEqualTo(200);
    assertThat(repository.asString())
        .contains("Signed in as <strong>" + login)
        .contains("deploys.md");
    assertThat(waitingPage(device).statusCode())
        .as("the finished device flow is gone")
        .isEqualTo(410);
  }

  @Test
  void aSignInDeclinedAtGitHubSaysSoInWordsAndSignsNobodyIn() {
    String deviceCode = "declined" + UUID.randomUUID();
    gitHub().nextDeviceFlow(deviceCode, "DECL-INED", 1, PENDING, "{\"error\":\"access_denied\"}");
    Response ended = pollUntilEnded(startDeviceFlow(), deviceCode);
    assertThat(ended.statusCode()).isEqualTo(401);
    assertThat(ended.asString()).contains("Not signed in: the sign-in was declined at GitHub.");
    assertThat(ended.getCookie("tmem_console")).isNull();
  }

  @Test
  void aCodeThatExpiredAtGitHubSaysSoAndAGoneSignInAsksToStartAgain() {
    String deviceCode = "expired" + UUID.randomUUID();
    gitHub().nextDeviceFlow(deviceCode, "EXPI-REDX", 1, "{\"error\":\"expired_token\"}");
    String device = startDeviceFlow();
    Response ended = pollUntilEnded(device, deviceCode);
    assertThat(ended.statusCode()).isEqualTo(401);
    assertThat(ended.asString())
        .contains("Not signed in: the code expired before it was entered at GitHub.");
    assertThat(ended.getCookie("tmem_console")).isNull();

    Response gone = waitingPage(device);
    assertThat(gone.statusCode()).isEqualTo(410);
    assertThat(gone.asString()).contains("The GitHub sign-in expired; start again.");
    assertThat(given().redirects().follow(false).get("/console/sign-in/github").asString())
        .as("without its cookie")
        .contains("The GitHub sign-in expired; start again.");
  }

  /**
   * The sign-in page's "Sign in with GitHub" button: its form, posted; the device flow's cookie.
   */
  private static String startDeviceFlow() {
    Response form = given().get("/console/sign-in");
    Document signIn = Jsoup.parse(form.asString());
    assertThat(signIn.select("form[action=/console/sign-in/github] button").text())
        .isEqualTo("Sign in with GitHub");
    Response started =
        given()
            .redirects()
            .follow(false)
            .cookie("tmem_console_form", form.getCookie("tmem_console_form"))
            .contentType(ContentType.URLENC)
            .formParam("csrf", csrfOf(form.asString()))
            .post("/console/sign-in/github");
    assertThat(started.statusCode()).isEqualTo(303);
    assertThat(started.getHeader("Location")).endsWith("/console/sign-in/github");
    String device = started.getCookie(DEVICE_COOKIE);
    assertThat(device).isNotBlank();
    return device;
  }

  private static Response waitingPage(String device) {
    return given()
        .redirects()
        .follow(false)
        .cookie(DEVICE_COOKIE, device)
        .get("/console/sign-in/github");
  }

  /** The waiting page; when the server polled GitHub for it, what the browser got is noted. */
  private static Response watchedWaitingPage(
      String device, String deviceCode, List<String> answered) {
    int before = gitHub().devicePolls(deviceCode);
    Response response = waitingPage(device);
    if (gitHub().devicePolls(deviceCode) > before) {
      answered.add(response.statusCode() + " refresh " + response.getHeader("Refresh"));
    }
    return response;
  }

  private static Response pollUntilEnded(String device, String deviceCode) {
    AtomicReference<Response> last = new AtomicReference<>();
    Await.until(
        "the device flow to end",
        () -> {
          Response response = waitingPage(device);
          last.set(response);
          return response.statusCode() != 200;
        });
    assertThat(gitHub().devicePolls(deviceCode)).isPositive();
    return last.get();
  }

  /** Every script is a static file of the console's, and the page waits without any. */
  private static void assertWorksWithoutInlineScript(Document page) {
    assertThat(page.select("script"))
        .allSatisfy(
            script -> {
              assertThat(script.attr("src")).startsWith("/console/assets/");
              assertThat(script.data()).isBlank();
            });
    assertThat(page.select("[onclick], [onload], [onerror]")).isEmpty();
    for (String script : page.select("script[src]").eachAttr("src")) {
      Response file = given().get(script);
      assertThat(file.statusCode()).as(script).isEqualTo(200);
      assertThat(file.getContentType()).as(script).contains("javascript");
    }
  }
}
