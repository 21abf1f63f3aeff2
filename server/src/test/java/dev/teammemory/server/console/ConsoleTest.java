package dev.teammemory.server.console;

import static dev.teammemory.server.TestRepositories.PATH;
import static dev.teammemory.server.TestRepositories.READER;
import static dev.teammemory.server.TestRepositories.WRITER;
import static dev.teammemory.server.TestRepositories.as;
import static dev.teammemory.server.TestRepositories.entries;
import static dev.teammemory.server.TestRepositories.fresh;
import static dev.teammemory.server.TestRepositories.put;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The console's pages over HTTP: sessions, CSRF, access, hostile memory, writes. */
@QuarkusTest
class ConsoleTest {

  private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

  /** A signed-in browser: its session cookie and its forms' CSRF token. */
  record Browser(String session, String csrf) {}

  static Browser signIn(String token) {
    Response form = given().get("/console/sign-in");
    assertThat(form.statusCode()).isEqualTo(200);
    String formCookie = form.getCookie("tmem_console_form");
    Response signedIn =
        given()
            .redirects()
            .follow(false)
            .cookie("tmem_console_form", formCookie)
            .contentType(ContentType.URLENC)
            .formParam("csrf", csrfOf(form.asString()))
            .formParam("token", token)
            .formParam("next", "/console/")
            .post("/console/sign-in");
    assertThat(signedIn.statusCode()).isEqualTo(303);
    String session = signedIn.getCookie("tmem_console");
    Response home = given().cookie("tmem_console", session).get("/console/");
    assertThat(home.statusCode()).isEqualTo(200);
    return new Browser(session, csrfOf(home.asString()));
  }

  static String csrfOf(String html) {
    Matcher matcher = CSRF.matcher(html);
    assertThat(matcher.find()).as("a form with a CSRF token in %s", html).isTrue();
    return matcher.group(1);
  }

  static Response page(Browser browser, String path) {
    return given().redirects().follow(false).cookie("tmem_console", browser.session()).get(path);
  }

  static Response post(Browser browser, String path, Map<String, String> form) {
    return given()
        .redirects()
        .follow(false)
        .cookie("tmem_console", browser.session())
        .contentType(ContentType.URLENC)
        .formParams(form)
        .post(path);
  }

  @Test
  void signInSetsAnHttpOnlyLaxCookieOnConsolePathsAndAPageWithoutOneRedirects() {
    Response form = given().get("/console/sign-in");
    Response signedIn =
        given()
            .redirects()
            .follow(false)
            .cookie("tmem_console_form", form.getCookie("tmem_console_form"))
            .contentType(ContentType.URLENC)
            .formParam("csrf", csrfOf(form.asString()))
            .formParam("token", WRITER)
            .post("/console/sign-in");
    String setCookie =
        signedIn.getHeaders().getValues("Set-Cookie").stream()
            .filter(value -> value.startsWith("tmem_console="))
            .findFirst()
            .orElseThrow();
    assertThat(setCookie)
        .contains("HttpOnly")
        .contains("Path=/console")
        .containsIgnoringCase("SameSite=Lax")
        .contains("Max-Age=");
    assertThat(setCookie).doesNotContain(WRITER);

    Response anonymous = given().redirects().follow(false).get("/console/repos/test-owner/x");
    assertThat(anonymous.statusCode()).isEqualTo(303);
    assertThat(anonymous.getHeader("Location")).contains("/console/sign-in?next=");
  }

  @Test
  void aWrongTokenIsRefusedInWordsAndASignInWithoutItsFormTokenIs403() {
    Response form = given().get("/console/sign-in");
    Response wrong =
        given()
            .cookie("tmem_console_form", form.getCookie("tmem_console_form"))
            .contentType(ContentType.URLENC)
            .formParam("csrf", csrfOf(form.asString()))
            .formParam("token", "no-such-token")
            .post("/console/sign-in");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.asString()).contains("That token is not valid on this server.");

    Response forged =
        given().contentType(ContentType.URLENC).formParam("token", WRITER).post("/console/sign-in");
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(forged.getCookie("tmem_console")).isNull();
  }

  @Test
  void everyPageCarriesTheStrictContentSecurityPolicy() {
    Response signInPage = given().get("/console/sign-in");
    assertThat(signInPage.getHeader("Content-Security-Policy"))
        .isEqualTo(SessionFilter.CONTENT_SECURITY_POLICY)
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline");
    Browser browser = signIn(READER);
    assertThat(page(browser, "/console/").getHeader("Content-Security-Policy"))
        .isEqualTo(SessionFilter.CONTENT_SECURITY_POLICY);
  }

  @Test
  void theCookieIsRefusedByBothApis() {
    String repo = fresh("console-cookie");
    put(repo, entries("a.md", "one"));
    Browser browser = signIn(WRITER);
    given()
        .cookie("tmem_console", browser.session())
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(401);
    given()
        .cookie("tmem_console", browser.session())
        .get("/v1/memory_stores")
        .then()
        .statusCode(401);
  }

  @Test
  void browseSearchOpenHistoryAndDiff() {
    String repo = fresh("console-browse");
    put(
        repo,
        entries(
            "MEMORY.md", "# Team index\n\n- [deploys](notes/deploys.md)",
            "notes/deploys.md",
                "---\nname: Deploys\ntype: project\ndescription: How we deploy\n---\nUse the blue-green switch.",
            "notes/other.md", "Nothing about that."));
    put(repo, entries("notes/deploys.md", "---\nname: Deploys\n---\nUse the canary switch."));
    Browser browser = signIn(READER);

    String listing = page(browser, "/console/repos/" + repo).asString();
    assertThat(listing).contains("notes/").contains("deploys.md").contains("other.md");
    assertThat(listing).contains("<h1>Team index</h1>");

    assertThat(page(browser, "/console/repos/" + repo + "?q=" + "x".repeat(201)).statusCode())
        .isEqualTo(400);
    String found = page(browser, "/console/repos/" + repo + "?q=canary").asString();
    assertThat(found).contains("notes/deploys.md").doesNotContain("notes/other.md");

    String memory =
        page(browser, "/console/repos/" + repo + "/memories/notes/deploys.md").asString();
    assertThat(memory).contains("<p>Use the canary switch.</p>").contains("<dd>Deploys</dd>");

    String history =
        page(browser, "/console/repos/" + repo + "/memories/notes/deploys.md/history?from=1&to=2")
            .asString();
    assertThat(history).contains("Changes from version 1 to version 2");
    assertThat(history).contains("Use the blue-green switch.").contains("Use the canary switch.");

    String activity = page(browser, "/console/repos/" + repo + "/activity").asString();
    assertThat(activity).contains("notes/deploys.md").contains("alice");
  }

  @Test
  void searchRanksANameOrDescriptionHitAboveATextOnlyHit() {
    String repo = fresh("console-rank");
    put(
        repo,
        entries(
            "a-body.md", "---\nname: Rollouts\n---\nWe once talked about the kraken here.",
            "b-description.md",
                "---\nname: Monsters\ndescription: The kraken in our queue\n---\nSee the board.",
            "c-name.md", "---\nname: Kraken\ndescription: A sea story\n---\nLong ago.",
            "d-none.md", "---\nname: Other\n---\nNothing to see."));
    Browser browser = signIn(READER);

    assertThat(results(browser, repo, "kraken"))
        .containsExactly(
            "/memories/c-name.md", "/memories/b-description.md", "/memories/a-body.md");
    assertThat(results(browser, repo, "sea story")).containsExactly("/memories/c-name.md");
    assertThat(results(browser, repo, "kraken -queue"))
        .containsExactlyInAnyOrder("/memories/c-name.md", "/memories/a-body.md");
  }

  @Test
  void searchFindsAPathByItsStartAndByItsWordsAndPagesTheResults() {
    String repo = fresh("console-path");
    put(
        repo,
        entries(
            "Runbooks/Deploy-Steps.md", "nothing to match in here",
            "runbooks/oncall.md", "the pager rota",
            "notes/runbooks-elsewhere.md", "nothing either"));
    Browser browser = signIn(READER);

    assertThat(results(browser, repo, "runbooks/dep"))
        .containsExactly("/memories/Runbooks/Deploy-Steps.md");
    assertThat(results(browser, repo, "RUNBOOKS/"))
        .as("the paths starting with it first, then the one holding the word")
        .containsExactly(
            "/memories/Runbooks/Deploy-Steps.md",
            "/memories/runbooks/oncall.md",
            "/memories/notes/runbooks-elsewhere.md");
    assertThat(results(browser, repo, "oncall.md")).containsExactly("/memories/runbooks/oncall.md");
    assertThat(results(browser, repo, "elsewhere"))
        .containsExactly("/memories/notes/runbooks-elsewhere.md");

    List<String> many = new java.util.ArrayList<>();
    for (int i = 0; i < Pages.PAGE_SIZE + 3; i++) {
      many.add("many/m" + String.format("%03d", i) + ".md");
      many.add("the walrus number " + i);
    }
    put(repo, entries(many.toArray(String[]::new)));
    Response first = page(browser, "/console/repos/" + repo + "?q=walrus");
    org.jsoup.nodes.Document html = org.jsoup.Jsoup.parse(first.asString());
    assertThat(memoryLinks(html)).hasSize(Pages.PAGE_SIZE);
    String more = html.select("a:contains(More results)").attr("href");
    assertThat(more).endsWith("?q=walrus&offset=" + Pages.PAGE_SIZE);
    assertThat(memoryLinks(org.jsoup.Jsoup.parse(page(browser, more).asString()))).hasSize(3);
  }

  private static List<String> results(Browser browser, String repo, String query) {
    Response found =
        given()
            .redirects()
            .follow(false)
            .cookie("tmem_console", browser.session())
            .queryParam("q", query)
            .get("/console/repos/" + repo);
    assertThat(found.statusCode()).isEqualTo(200);
    String prefix = "/console/repos/" + repo;
    return memoryLinks(org.jsoup.Jsoup.parse(found.asString())).stream()
        .map(href -> href.substring(prefix.length()))
        .toList();
  }

  /** The links to memories in the results table, in the order shown. */
  private static List<String> memoryLinks(org.jsoup.nodes.Document html) {
    return html.select("table a[href*=/memories/]").eachAttr("href");
  }

  @Test
  void hostileMemoryRendersInert() {
    String repo = fresh("console-hostile");
    put(
        repo,
        entries(
            "evil.md",
            "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n"
                + "[click](javascript:alert(3)) [data](data:text/html,hi)\n\n"
                + "![tracker](https://tracker.example/pixel.png)\n\n"
                + "<a href=\"#\" onclick=\"alert(4)\">x</a>"));
    Browser browser = signIn(READER);
    String html = page(browser, "/console/repos/" + repo + "/memories/evil.md").asString();
    org.jsoup.nodes.Element article = org.jsoup.Jsoup.parse(html).selectFirst("article");
    assertThat(article).isNotNull();
    assertThat(article.select("script, img, iframe, object, [style]")).isEmpty();
    assertThat(article.getAllElements())
        .allSatisfy(
            element ->
                assertThat(element.attributes().asList())
                    .noneMatch(attribute -> attribute.getKey().toLowerCase().startsWith("on")));
    assertThat(article.select("a[href]").eachAttr("href"))
        .containsExactly("https://tracker.example/pixel.png");
    assertThat(article.text()).contains("image: tracker (not loaded)");
  }

  @Test
  void aReaderSeesNoWriteControlsAndItsPostIs403() {
    String repo = fresh("console-reader");
    put(repo, entries("a.md", "one"));
    Browser reader = signIn(READER);
    String memory = page(reader, "/console/repos/" + repo + "/memories/a.md").asString();
    assertThat(memory).doesNotContain("<textarea").doesNotContain("Delete this memory");
    Response forged =
        post(
            reader,
            "/console/repos/" + repo + "/save",
            Map.of("csrf", reader.csrf(), "path", "a.md", "content", "forged", "expected", "1"));
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(content(repo)).containsEntry("a.md", "one");
  }

  @Test
  void aFormWithoutItsCsrfTokenIsRefused() {
    String repo = fresh("console-csrf");
    put(repo, entries("a.md", "one"));
    Browser writer = signIn(WRITER);
    Response forged =
        post(
            writer,
            "/console/repos/" + repo + "/save",
            Map.of("path", "a.md", "content", "forged", "expected", "1"));
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(forged.asString()).contains("CSRF token is missing or wrong");
    assertThat(content(repo)).containsEntry("a.md", "one");
  }

  @Test
  void aCallerOfAnotherOrganisationGets404ForEveryPage() {
    String repo = fresh("console-other");
    put(repo, entries("a.md", "one"));
    Browser acme = signIn("acme-token");
    for (String path :
        List.of("", "?q=one", "/memories/a.md", "/memories/a.md/history", "/activity")) {
      assertThat(page(acme, "/console/repos/" + repo + path).statusCode()).as(path).isEqualTo(404);
    }
    assertThat(page(acme, "/console/").asString()).doesNotContain(repo);
  }

  @Test
  void anEditFromAStalePageIsRefusedAndOverwritesNothing() {
    String repo = fresh("console-stale");
    put(repo, entries("a.md", "one"));
    Browser writer = signIn(WRITER);
    put(repo, entries("a.md", "teammate's"));
    Response stale =
        post(
            writer,
            "/console/repos/" + repo + "/save",
            Map.of("csrf", writer.csrf(), "path", "a.md", "content", "mine", "expected", "1"));
    assertThat(stale.statusCode()).isEqualTo(409);
    assertThat(stale.asString()).contains("someone changed this memory after the page showed it");
    assertThat(content(repo)).containsEntry("a.md", "teammate's");
  }

  @Test
  void aRestoreWritesANewVersionByTheSignedInUser() {
    String repo = fresh("console-restore");
    put(repo, entries("a.md", "first"));
    put(repo, entries("a.md", "second"));
    Browser writer = signIn(WRITER);
    Response restored =
        post(
            writer,
            "/console/repos/" + repo + "/restore",
            Map.of("csrf", writer.csrf(), "path", "a.md", "version", "1", "expected", "2"));
    assertThat(restored.statusCode()).isEqualTo(303);
    assertThat(content(repo)).containsEntry("a.md", "first");
    List<Map<String, Object>> versions =
        as(READER)
            .queryParam("repo", repo)
            .queryParam("key", "a.md")
            .get(PATH + "/history")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getList("versions");
    assertThat(versions.getFirst()).containsEntry("version", 3).containsEntry("author", "alice");
  }

  @Test
  void aSecretIsRefusedInWordsAndNotKept() {
    String repo = fresh("console-secret");
    put(repo, entries("a.md", "one"));
    Browser writer = signIn(WRITER);
    Response refused =
        post(
            writer,
            "/console/repos/" + repo + "/save",
            Map.of(
                "csrf",
                writer.csrf(),
                "path",
                "a.md",
                "content",
                "token ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
                "expected",
                "1"));
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.asString()).contains("secret(s) found").doesNotContain("ghp_A1b2");
    assertThat(content(repo)).containsEntry("a.md", "one");
  }

  @Test
  void aSignInCodeOpensTheRepositoryOnceWithoutATokenInTheUrl() {
    String repo = fresh("console-code");
    put(repo, entries("a.md", "one"));
    String path =
        as(WRITER)
            .queryParam("repo", repo)
            .post("/api/console/sign-in-code")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getString("path");
    assertThat(path).startsWith("/console/code/").doesNotContain(WRITER);
    Response used = given().urlEncodingEnabled(false).redirects().follow(false).get(path);
    assertThat(used.statusCode()).isEqualTo(303);
    assertThat(used.getHeader("Location")).endsWith("/console/repos/" + repo);
    Browser browser = new Browser(used.getCookie("tmem_console"), "");
    assertThat(page(browser, "/console/repos/" + repo).statusCode()).isEqualTo(200);
    assertThat(given().urlEncodingEnabled(false).redirects().follow(false).get(path).statusCode())
        .isEqualTo(410);
  }

  @Test
  void signOutEndsTheSession() {
    Browser browser = signIn(READER);
    Response out = post(browser, "/console/sign-out", Map.of("csrf", browser.csrf()));
    assertThat(out.statusCode()).isEqualTo(303);
    assertThat(page(browser, "/console/").statusCode()).isEqualTo(303);
  }

  private static Map<String, Object> content(String repo) {
    return as(READER)
        .queryParam("repo", repo)
        .get(PATH)
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .getMap("content.entries");
  }
}
