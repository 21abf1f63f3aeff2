package dev.teammemory.daemon.cli;

import static dev.teammemory.daemon.testing.Conditions.await;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.sync.SyncEngine;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.daemon.testing.TmemRun;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real Chromium (Debian's {@code chromium} and {@code chromium-driver}) driven by
 * Selenium, against the packaged server, beside a running daemon: one browser for every case, in
 * order, finding things as a person does (visible text, labels, link targets). Takes the
 * screenshots docs/console.md shows. Where no Chromium is installed it says so in one line and is
 * skipped; {@code .ci/run} installs one and fails unless the marker this class writes once every
 * case passed is there.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {

  private static final String REPO = "acme/console";
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Path TARGET = Path.of("target");
  private static final Path SCREENSHOTS = TARGET.resolve("console-screenshots");

  /** What .ci/run looks for: every case of this class ran and passed. */
  private static final Path MARKER = TARGET.resolve("console-browser-tests.ran");

  private static final int CASES = 9;
  private static final AtomicInteger PASSED = new AtomicInteger();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Path root;
  private static ServerProcess server;
  private static SyncFixture fixture;
  private static SyncEngine daemon;
  private static ChromeDriver browser;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  @BeforeAll
  static void start() throws Exception {
    Files.deleteIfExists(MARKER);
    Optional<Path[]> chromium = chromium();
    if (chromium.isEmpty()) {
      System.out.println(
          "ConsoleBrowserIT: no chromium and chromedriver here (apt-get install chromium"
              + " chromium-driver); the console's browser tests are skipped");
      Assumptions.abort("no chromium and chromedriver");
    }
    root = Files.createTempDirectory("tmem-console-");
    server = ServerProcess.start(root.resolve("server"));
    try (TeamMemoryClient alice = client(ServerProcess.ALICE)) {
      put(
          alice,
          Map.of(
              "MEMORY.md",
              "# Team memory\n\n- [Deploys](notes/deploys.md): how we ship\n",
              "notes/deploys.md",
              "---\nname: Deploys\ntype: project\ndescription: How we ship to production\n---\n"
                  + "Deploys go out with the blue-green switch.\n",
              "notes/testing.md",
              "---\nname: Testing\ntype: feedback\ndescription: Real parts in tests\n---\n"
                  + "Use a real PostgreSQL, never mocks.\n",
              "evil.md",
              "---\nname: Hostile\n---\n<script>alert('script')</script>\n\n"
                  + "<img src=x onerror=\"alert('onerror')\">\n\n"
                  + "[a javascript link](javascript:alert('link'))\n\n"
                  + "![tracker](https://tracker.example/pixel.png)\n"));
      put(
          alice,
          Map.of(
              "notes/deploys.md",
              "---\nname: Deploys\ntype: project\ndescription: How we ship to production\n---\n"
                  + "Deploys go out behind the canary switch.\n"));
    }
    fixture = new SyncFixture(root.resolve("daemons"));
    daemon = fixture.daemon("bob", REPO, server.url(), ServerProcess.BOB);
    Path deploys = fixture.teamDir("bob").resolve("notes/deploys.md");
    await(
        "the daemon pulled the repository",
        DEADLINE,
        () -> SyncFixture.hasContent(deploys, deploysVersion2()));

    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get()[0].toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--user-data-dir=" + Files.createDirectories(root.resolve("chromium-profile")));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromium.get()[1].toFile())
            .usingAnyFreePort()
            .build();
    browser = new ChromeDriver(service, options);
    browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (browser != null) {
        browser.quit();
      }
      if (fixture != null) {
        fixture.close();
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
    if (PASSED.get() == CASES) {
      Files.writeString(MARKER, "every case of ConsoleBrowserIT passed\n", UTF_8);
    }
  }

  @Test
  @Order(1)
  void signInWithAToken() throws IOException {
    open("/console/repos/" + REPO);
    assertThat(heading()).isEqualTo("Sign in");
    screenshot("sign-in");
    signInWith(ServerProcess.ALICE);
    assertThat(heading()).isEqualTo(REPO);
    assertThat(body()).contains("Signed in as alice");
    PASSED.incrementAndGet();
  }

  @Test
  @Order(2)
  void browseSearchOpenHistoryAndDiff() throws IOException {
    open("/console/repos/" + REPO);
    assertThat(body()).contains("notes/").contains("How we ship to production");
    assertThat(browser.findElement(By.cssSelector("main h2 + p, .index")).getText())
        .contains("Team memory");
    screenshot("repository-light-desktop");

    WebElement search = browser.findElement(By.id(labelledField("Search memories")));
    search.sendKeys("canary");
    follow(button("Search"));
    assertThat(body()).contains("Results for “canary”");
    assertThat(linkTexts()).contains("notes/deploys.md").doesNotContain("notes/testing.md");

    follow(link("notes/deploys.md"));
    assertThat(heading()).isEqualTo("notes/deploys.md");
    assertThat(browser.findElement(By.tagName("article")).getText())
        .isEqualTo("Deploys go out behind the canary switch.");
    assertThat(body()).contains("How we ship to production").contains("version 2");
    screenshot("memory-light-desktop");

    follow(link("History"));
    assertThat(heading()).isEqualTo("History of notes/deploys.md");
    radio("Compare from version 1").click();
    radio("Compare to version 2").click();
    follow(button("Show the diff"));
    assertThat(body()).contains("Changes from version 1 to version 2");
    WebElement diff = browser.findElement(By.cssSelector("table.diff"));
    assertThat(diff.getText())
        .contains("Deploys go out with the blue-green switch.")
        .contains("Deploys go out behind the canary switch.");
    screenshot("history-diff-light-desktop");
    PASSED.incrementAndGet();
  }

  @Test
  @Order(3)
  void aRestoreIsANewVersionByTheUserThatTheStoreApiShowsAndTheDaemonReceives() throws Exception {
    open("/console/repos/" + REPO + "/memories/notes/deploys.md/history");
    follow(button("Restore version 1"));
    assertThat(heading()).isEqualTo("notes/deploys.md");
    assertThat(browser.findElement(By.tagName("article")).getText())
        .isEqualTo("Deploys go out with the blue-green switch.");

    JsonNode newest = newestStoreVersion("/notes/deploys.md");
    assertThat(newest.path("operation").asText()).isEqualTo("modified");
    assertThat(newest.path("created_by").toString()).contains("alice");
    assertThat(newest.path("content").asText()).contains("blue-green switch");

    Path file = fixture.teamDir("bob").resolve("notes/deploys.md");
    await(
        "the running daemon received the restore",
        DEADLINE,
        () -> SyncFixture.hasContent(file, deploysVersion1()));
    PASSED.incrementAndGet();
  }

  @Test
  @Order(4)
  void hostileMemoryRendersInert() throws IOException {
    open("/console/repos/" + REPO + "/memories/evil.md");
    assertThat(heading()).isEqualTo("evil.md");
    assertThatThrownBy(() -> browser.switchTo().alert())
        .isInstanceOf(NoAlertPresentException.class);
    WebElement article = browser.findElement(By.tagName("article"));
    assertThat(article.findElements(By.tagName("img"))).isEmpty();
    assertThat(article.findElements(By.tagName("script"))).isEmpty();
    assertThat(article.getText()).contains("<script>alert('script')</script>");
    assertThat(link("image: tracker (not loaded)").getAttribute("href"))
        .isEqualTo("https://tracker.example/pixel.png");
    assertThat(link("a javascript link").getAttribute("href")).isNull();
    link("a javascript link").click();
    assertThatThrownBy(() -> browser.switchTo().alert())
        .isInstanceOf(NoAlertPresentException.class);
    @SuppressWarnings("unchecked")
    List<String> requested =
        (List<String>)
            browser.executeScript(
                "return performance.getEntriesByType('resource').map(e => e.name)"
                    + ".concat([location.href]);");
    assertThat(requested).isNotEmpty().allMatch(url -> url.startsWith(server.url()));
    PASSED.incrementAndGet();
  }

  @Test
  @Order(5)
  void formsWithoutTheirCsrfTokenAreRefusedTheCspIsSentAndTheApisRefuseTheCookie()
      throws Exception {
    String session = sessionCookie();
    HttpResponse<String> forged =
        post(
            "/console/repos/" + REPO + "/save",
            session,
            Map.of("path", "evil.md", "content", "forged", "expected", "1"));
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(forged.body()).contains("CSRF token is missing or wrong");

    HttpResponse<String> page = get("/console/repos/" + REPO, session);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Security-Policy").orElse(""))
        .contains("default-src 'none'")
        .contains("script-src 'self'")
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline");

    assertThat(get("/api/claude_code/team_memory?repo=" + encode(REPO), session).statusCode())
        .isEqualTo(401);
    assertThat(get("/v1/memory_stores", session).statusCode()).isEqualTo(401);
    PASSED.incrementAndGet();
  }

  @Test
  @Order(6)
  void aReaderSeesNoWriteControlsAndItsForgedPostIs403() throws Exception {
    signOut();
    open("/console/repos/" + REPO + "/memories/notes/testing.md");
    signInWith(ServerProcess.READER);
    assertThat(heading()).isEqualTo("notes/testing.md");
    assertThat(browser.findElements(By.tagName("textarea"))).isEmpty();
    assertThat(buttonTexts()).doesNotContain("Save", "Delete this memory");
    open("/console/repos/" + REPO + "/memories/notes/testing.md/history");
    assertThat(buttonTexts()).noneMatch(text -> text.startsWith("Restore"));

    String csrf =
        browser
            .findElement(By.cssSelector("form[action='/console/sign-out'] input[name=csrf]"))
            .getAttribute("value");
    HttpResponse<String> forged =
        post(
            "/console/repos/" + REPO + "/save",
            sessionCookie(),
            Map.of("csrf", csrf, "path", "notes/testing.md", "content", "x", "expected", "1"));
    assertThat(forged.statusCode()).isEqualTo(403);
    try (TeamMemoryClient bob = client(ServerProcess.BOB)) {
      assertThat(SyncFixture.entries(bob, REPO).get("notes/testing.md"))
          .contains("real PostgreSQL");
    }
    PASSED.incrementAndGet();
  }

  @Test
  @Order(7)
  void aCallerOfAnotherOrganisationGets404ForEveryPageOfTheRepository() throws Exception {
    signOut();
    open("/console/");
    signInWith(ServerProcess.OUTSIDER);
    assertThat(body()).doesNotContain(REPO);
    String session = sessionCookie();
    for (String path :
        List.of(
            "",
            "?q=canary",
            "/memories/notes/deploys.md",
            "/memories/notes/deploys.md/history",
            "/memories/notes/deploys.md/history?from=1&to=2",
            "/activity")) {
      assertThat(get("/console/repos/" + REPO + path, session).statusCode())
          .as(path)
          .isEqualTo(404);
    }
    open("/console/repos/" + REPO + "/memories/notes/deploys.md");
    assertThat(heading()).isEqualTo("Not found");
    PASSED.incrementAndGet();
  }

  @Test
  @Order(8)
  void tmemConsoleSignsInThroughASingleUseLinkAndTheScreenshotsAreTaken() throws Exception {
    signOut();
    Path home = Files.createDirectories(root.resolve("alice-home"));
    Environment environment =
        new Environment(
            Map.of(
                "TMEM_SERVER_URL", server.url(),
                "TMEM_TOKEN", ServerProcess.ALICE,
                "XDG_STATE_HOME", home.resolve("state").toString()),
            home,
            home);
    TmemRun run =
        TmemRun.tmem(
            environment,
            "console",
            "--print",
            "--repo",
            REPO,
            "--team-dir",
            fixture.teamDir("bob").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    String link = run.out().substring(run.out().indexOf("http")).strip();
    assertThat(link).contains("/console/code/").doesNotContain(ServerProcess.ALICE);
    browser.get(link);
    assertThat(heading()).isEqualTo(REPO);
    assertThat(body()).contains("Signed in as alice");
    browser.get(link);
    assertThat(body()).contains("That sign-in link was used already or has expired");

    open("/console/repos/" + REPO + "/activity");
    assertThat(body()).contains("alice").contains("notes/deploys.md");
    screenshot("activity-light-desktop");
    open("/console/repos/" + REPO);
    dark(true);
    screenshot("repository-dark-desktop");
    phone(true);
    screenshot("repository-dark-phone");
    dark(false);
    screenshot("repository-light-phone");
    open("/console/repos/" + REPO + "/memories/notes/deploys.md");
    screenshot("memory-light-phone");
    phone(false);
    PASSED.incrementAndGet();
  }

  @Test
  @Order(9)
  void aReviewerApprovesAWaitingChangeFromTheQueue() throws Exception {
    signOut();
    HttpResponse<String> required =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url()
                            + "/api/claude_code/team_memory/settings?repo="
                            + encode(REPO)))
                .header("Authorization", "Bearer " + ServerProcess.ADMIN)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"review\":\"required\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(required.statusCode()).as(required.body()).isEqualTo(200);
    try (TeamMemoryClient alice = client(ServerProcess.ALICE)) {
      put(alice, Map.of("notes/testing.md", "Use a real PostgreSQL and real browsers.\n"));
    }

    open("/console/repos/" + REPO);
    signInWith(ServerProcess.REVIEWER);
    follow(link("Review"));
    assertThat(heading()).isEqualTo("Review of " + REPO);
    assertThat(body()).contains("Review is required").contains("notes/testing.md");
    follow(link("Review edit"));
    assertThat(heading()).isEqualTo("Change to notes/testing.md");
    assertThat(browser.findElement(By.cssSelector("table.diff")).getText())
        .contains("Use a real PostgreSQL, never mocks.")
        .contains("Use a real PostgreSQL and real browsers.");
    screenshot("review-change-light-desktop");
    browser.findElement(By.id(labelledField("Comment for alice (optional)"))).sendKeys("Agreed.");
    follow(button("Approve"));
    assertThat(heading()).isEqualTo("Change to notes/testing.md");
    assertThat(body()).contains("Approved by rita").contains("Agreed.");
    assertThat(buttonTexts()).doesNotContain("Approve", "Reject");

    HttpResponse<String> approved =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url()
                            + "/api/claude_code/team_memory/reviews?status=approved&repo="
                            + encode(REPO)))
                .header("Authorization", "Bearer " + ServerProcess.ALICE)
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode change = JSON.readTree(approved.body()).path("data").path(0);
    assertThat(change.path("key").asText()).isEqualTo("notes/testing.md");
    assertThat(change.path("reviewer").asText()).isEqualTo("rita");
    assertThat(change.path("comment").asText()).isEqualTo("Agreed.");

    follow(link("Back to the waiting changes"));
    assertThat(body()).contains("No change waits for review.");
    follow(link("Audit"));
    assertThat(body()).contains("approved").contains("rita").contains("review_on");
    PASSED.incrementAndGet();
  }

  // ----------------------------------------------------------------------------- helpers

  private static String deploysVersion1() {
    return "---\nname: Deploys\ntype: project\ndescription: How we ship to production\n---\n"
        + "Deploys go out with the blue-green switch.\n";
  }

  private static String deploysVersion2() {
    return "---\nname: Deploys\ntype: project\ndescription: How we ship to production\n---\n"
        + "Deploys go out behind the canary switch.\n";
  }

  /** /usr/bin/chromium and /usr/bin/chromedriver (or where PATH has them), when both are there. */
  private static Optional<Path[]> chromium() {
    Optional<Path> browserBinary = onPath("chromium");
    Optional<Path> driver = onPath("chromedriver");
    return browserBinary.isPresent() && driver.isPresent()
        ? Optional.of(new Path[] {browserBinary.get(), driver.get()})
        : Optional.empty();
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/bin";
    for (String folder : path.split(File.pathSeparator)) {
      Path candidate = Path.of(folder, name);
      if (!folder.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static TeamMemoryClient client(String token) {
    return new TeamMemoryClient(server.url(), () -> token, "console-browser-it");
  }

  private static void put(TeamMemoryClient client, Map<String, String> entries) {
    assertThat(client.put(REPO, entries, Optional.empty())).isInstanceOf(Response.Ok.class);
  }

  private static void open(String path) {
    browser.get(server.url() + path);
  }

  private static void signInWith(String token) {
    assertThat(heading()).isEqualTo("Sign in");
    browser.findElement(By.id(labelledField("Token"))).sendKeys(token);
    follow(button("Sign in"));
  }

  private static void signOut() {
    open("/console/");
    if (!browser.findElements(By.xpath("//button[normalize-space()='Sign out']")).isEmpty()) {
      follow(button("Sign out"));
    }
    assertThat(heading()).isEqualTo("Sign in");
  }

  /**
   * Clicks what leads to another page and waits until that page has replaced this one: a click
   * returns once the browser has the event, not once the next page is there, and a loaded machine
   * showed the gap (no h1 yet).
   */
  private static void follow(WebElement target) {
    WebElement page = browser.findElement(By.tagName("html"));
    target.click();
    new WebDriverWait(browser, DEADLINE)
        .until(driver -> ExpectedConditions.stalenessOf(page).apply(driver) && loaded(driver));
  }

  private static boolean loaded(WebDriver driver) {
    Object state = ((JavascriptExecutor) driver).executeScript("return document.readyState");
    return "complete".equals(state);
  }

  private static String heading() {
    return browser.findElement(By.tagName("h1")).getText();
  }

  private static String body() {
    return browser.findElement(By.tagName("body")).getText();
  }

  /** The id of the field a label with this text names: found as a person finds it. */
  private static String labelledField(String label) {
    return browser
        .findElement(By.xpath("//label[normalize-space()='" + label + "']"))
        .getAttribute("for");
  }

  private static WebElement button(String text) {
    return browser.findElement(By.xpath("//button[normalize-space()='" + text + "']"));
  }

  private static WebElement link(String text) {
    return browser.findElement(By.xpath("//a[normalize-space()='" + text + "']"));
  }

  private static WebElement radio(String label) {
    return browser.findElement(By.cssSelector("input[type=radio][aria-label='" + label + "']"));
  }

  private static List<String> linkTexts() {
    return browser.findElements(By.tagName("a")).stream().map(WebElement::getText).toList();
  }

  private static List<String> buttonTexts() {
    return browser.findElements(By.tagName("button")).stream().map(WebElement::getText).toList();
  }

  private static String sessionCookie() {
    Cookie cookie = browser.manage().getCookieNamed("tmem_console");
    assertThat(cookie).as("a console session cookie").isNotNull();
    assertThat(cookie.isHttpOnly()).isTrue();
    assertThat(cookie.getPath()).isEqualTo("/console");
    assertThat(cookie.getSameSite()).isEqualTo("Lax");
    return cookie.getValue();
  }

  private static void dark(boolean on) {
    browser.executeCdpCommand(
        "Emulation.setEmulatedMedia",
        Map.of(
            "features",
            List.of(Map.of("name", "prefers-color-scheme", "value", on ? "dark" : "light"))));
  }

  private static void phone(boolean on) {
    if (on) {
      browser.executeCdpCommand(
          "Emulation.setDeviceMetricsOverride",
          Map.of("width", 390, "height", 844, "deviceScaleFactor", 2, "mobile", true));
    } else {
      browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
    }
    browser.navigate().refresh();
  }

  private static void screenshot(String name) throws IOException {
    Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
    Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  private static JsonNode newestStoreVersion(String path) throws Exception {
    HttpResponse<String> location =
        HTTP.send(
            authorized("/api/claude_code/team_memory/store?repo=" + encode(REPO)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(location.statusCode()).as(location.body()).isEqualTo(200);
    String storePath = JSON.readTree(location.body()).path("path").asText();
    HttpResponse<String> versions =
        HTTP.send(
            authorized(storePath + "/memory_versions?view=full&limit=20").build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(versions.statusCode()).as(versions.body()).isEqualTo(200);
    for (JsonNode version : JSON.readTree(versions.body()).path("data")) {
      if (path.equals(version.path("path").asText())) {
        return version; // newest first
      }
    }
    throw new AssertionError("no version of " + path + " in " + versions.body());
  }

  private static HttpRequest.Builder authorized(String path) {
    return HttpRequest.newBuilder(URI.create(server.url() + path))
        .header("Authorization", "Bearer " + ServerProcess.BOB)
        .timeout(Duration.ofSeconds(30));
  }

  private static HttpResponse<String> get(String path, String session) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Cookie", "tmem_console=" + session)
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String path, String session, Map<String, String> form)
      throws Exception {
    String body =
        new LinkedHashMap<>(form)
            .entrySet().stream()
                .map(entry -> encode(entry.getKey()) + "=" + encode(entry.getValue()))
                .collect(Collectors.joining("&"));
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Cookie", "tmem_console=" + session)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, UTF_8);
  }
}
