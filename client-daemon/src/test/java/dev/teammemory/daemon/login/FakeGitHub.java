package dev.teammemory.daemon.login;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * One HTTP server that speaks GitHub's device flow ({@code /login/device/code}, {@code
 * /login/oauth/access_token}), GitHub Enterprise's REST API ({@code /api/v3/user}) with GitHub's
 * real response shapes, and the two endpoints of our server that login uses ({@code
 * /api/auth/config}, the hashes probe). The token endpoint answers from a script, so a test decides
 * when the user "enters the code".
 */
final class FakeGitHub implements AutoCloseable {

  static final String CLIENT_ID = "Iv1.8a61f9b3a7aba766";
  static final String DEVICE_CODE = "3584d83530557fdd1f46af8289938c8ef79f9dc5";
  static final String USER_CODE = "WDJB-MJHT";
  static final String TOKEN = "gho_16C7e42F292c6912E7710c838347Ae178B4a";
  static final String LOGIN = "octocat";
  private static final String ERROR_URI =
      "https://docs.github.com/developers/apps/authorizing-oauth-apps#error-codes-for-the-device-flow";

  private static final String REPOS = "/api/v3/repos/";

  private final MockWebServer server = new MockWebServer();
  private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
  private final Deque<MockResponse> tokenAnswers = new ConcurrentLinkedDeque<>();
  private final Map<String, String> users = new ConcurrentHashMap<>();
  private final Set<String> readableRepos = ConcurrentHashMap.newKeySet();
  private final Set<String> writableRepos = ConcurrentHashMap.newKeySet();
  private volatile boolean offersGitHubLogin = true;
  private volatile boolean serverAcceptsGitHubTokens = true;
  private volatile MockResponse deviceCodeAnswer = deviceCode(900, 5);

  FakeGitHub() throws IOException {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            requests.add(request);
            return answer(request);
          }
        });
    server.start();
    users.put(TOKEN, LOGIN);
  }

  /** The team-memory server's URL (this same server), without a trailing slash. */
  String serverUrl() {
    String url = server.url("/").toString();
    return url.substring(0, url.length() - 1);
  }

  String host() {
    return server.url("/").host();
  }

  String deviceCodeUrl() {
    return serverUrl() + "/login/device/code";
  }

  String tokenUrl() {
    return serverUrl() + "/login/oauth/access_token";
  }

  String apiUrl() {
    return serverUrl() + "/api/v3";
  }

  /**
   * The token endpoint's next answers, in order; after them it says {@code authorization_pending}.
   */
  void answerTokenRequestsWith(MockResponse... answers) {
    tokenAnswers.addAll(List.of(answers));
  }

  void answerDeviceCodeRequestsWith(MockResponse answer) {
    deviceCodeAnswer = answer;
  }

  /** GitHub's {@code /user} knows this token (and our server accepts it). */
  void knowsToken(String token, String login) {
    users.put(token, login);
  }

  void revoke(String token) {
    users.remove(token);
  }

  void withoutGitHubLogin() {
    offersGitHubLogin = false;
  }

  /** Our server rejects every token with 401, as one configured for another GitHub would. */
  void serverRejectsTokens() {
    serverAcceptsGitHubTokens = false;
  }

  void grantsReadAccessTo(String repo) {
    readableRepos.add(repo);
  }

  /** GitHub reports push (and pull) permission on the repository for every known token. */
  void grantsWriteAccessTo(String repo) {
    readableRepos.add(repo);
    writableRepos.add(repo);
  }

  List<RecordedRequest> requests(String path) {
    return requests.stream()
        .filter(request -> request.getUrl().encodedPath().equals(path))
        .toList();
  }

  List<RecordedRequest> tokenRequests() {
    return requests("/login/oauth/access_token");
  }

  /** A request's form body, decoded. */
  static Map<String, String> form(RecordedRequest request) {
    Map<String, String> fields = new LinkedHashMap<>();
    String body = request.getBody() == null ? "" : request.getBody().utf8();
    for (String pair : body.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      fields.put(
          URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return fields;
  }

  static MockResponse deviceCode(int expiresIn, int interval) {
    return json(
        200,
        "{\"device_code\":\""
            + DEVICE_CODE
            + "\",\"user_code\":\""
            + USER_CODE
            + "\",\"verification_uri\":\"https://github.com/login/device\",\"expires_in\":"
            + expiresIn
            + ",\"interval\":"
            + interval
            + "}");
  }

  static MockResponse granted(String accessToken) {
    return json(
        200,
        "{\"access_token\":\"" + accessToken + "\",\"token_type\":\"bearer\",\"scope\":\"repo\"}");
  }

  /** A GitHub App user token: expires in 8 hours, refreshable for about 6 months. */
  static MockResponse grantedExpiring(String accessToken, String refreshToken) {
    return json(
        200,
        "{\"access_token\":\""
            + accessToken
            + "\",\"expires_in\":28800,\"refresh_token\":\""
            + refreshToken
            + "\",\"refresh_token_expires_in\":15897600,\"token_type\":\"bearer\",\"scope\":\"\"}");
  }

  static MockResponse pending() {
    return error("authorization_pending", "The authorization request is still pending.");
  }

  static MockResponse slowDown(int interval) {
    return json(
        200,
        "{\"error\":\"slow_down\",\"error_description\":\"Too many requests have been made in the"
            + " same timeframe.\",\"error_uri\":\""
            + ERROR_URI
            + "\",\"interval\":"
            + interval
            + "}");
  }

  /** An OAuth error as GitHub sends it: status 200 and an {@code error} field. */
  static MockResponse error(String code, String description) {
    return json(
        200,
        "{\"error\":\""
            + code
            + "\",\"error_description\":\""
            + description
            + "\",\"error_uri\":\""
            + ERROR_URI
            + "\"}");
  }

  static MockResponse json(int status, String body) {
    return new MockResponse.Builder()
        .code(status)
        .setHeader("Content-Type", "application/json; charset=utf-8")
        .body(body)
        .build();
  }

  private MockResponse answer(RecordedRequest request) {
    String path = request.getUrl().encodedPath();
    return switch (request.getMethod() + " " + path) {
      case "GET /api/auth/config" ->
          offersGitHubLogin
              ? json(
                  200,
                  "{\"github\":{\"clientId\":\""
                      + CLIENT_ID
                      + "\",\"deviceCodeUrl\":\""
                      + deviceCodeUrl()
                      + "\",\"tokenUrl\":\""
                      + tokenUrl()
                      + "\",\"apiUrl\":\""
                      + apiUrl()
                      + "\",\"scopes\":[\"repo\"]}}")
              : json(
                  404,
                  "{\"error\":{\"message\":\"Not Found\",\"details\":{\"error_code\":\"not_found\"}}}");
      case "POST /login/device/code" -> deviceCodeAnswer;
      case "POST /login/oauth/access_token" -> {
        if (!CLIENT_ID.equals(form(request).get("client_id"))) {
          yield error(
              "incorrect_client_credentials",
              "The client_id and/or client_secret passed are incorrect.");
        }
        MockResponse next = tokenAnswers.poll();
        yield next != null ? next : pending();
      }
      case "GET /api/v3/user" -> {
        String login = users.get(bearer(request));
        yield login == null
            ? json(
                401,
                "{\"message\":\"Bad credentials\",\"documentation_url\":\"https://docs.github.com/rest\",\"status\":\"401\"}")
            : json(
                200,
                "{\"login\":\""
                    + login
                    + "\",\"id\":1,\"node_id\":\"MDQ6VXNlcjE=\",\"type\":\"User\",\"site_admin\":false,\"name\":\"The"
                    + " Octocat\"}");
      }
      case "GET /api/claude_code/team_memory" -> {
        if (!serverAcceptsGitHubTokens || !users.containsKey(bearer(request))) {
          yield json(
              401,
              "{\"error\":{\"message\":\"missing or invalid bearer token\",\"details\":{\"error_code\":\"unauthorized\"}}}");
        }
        String repo = request.getUrl().queryParameter("repo");
        yield readableRepos.contains(repo)
            ? json(
                200,
                "{\"version\":1,\"checksum\":\"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\",\"entryChecksums\":{}}")
            : json(
                404,
                "{\"error\":{\"message\":\"not found\",\"details\":{\"error_code\":\"not_found\"}}}");
      }
      default ->
          path.startsWith(REPOS)
              ? repository(request, path.substring(REPOS.length()))
              : json(
                  404,
                  "{\"message\":\"Not Found\",\"documentation_url\":\"https://docs.github.com/rest\"}");
    };
  }

  /** {@code GET /repos/{owner}/{repo}} as the server asks it: the user's permissions. */
  private MockResponse repository(RecordedRequest request, String slug) {
    if (!users.containsKey(bearer(request))) {
      return json(401, "{\"message\":\"Bad credentials\",\"status\":\"401\"}");
    }
    if (!readableRepos.contains(slug)) {
      return json(
          404,
          "{\"message\":\"Not Found\",\"documentation_url\":"
              + "\"https://docs.github.com/rest/repos/repos#get-a-repository\",\"status\":\"404\"}");
    }
    boolean push = writableRepos.contains(slug);
    return json(
        200,
        "{\"id\":1296269,\"name\":\""
            + slug.substring(slug.indexOf('/') + 1)
            + "\",\"full_name\":\""
            + slug
            + "\",\"private\":true,\"permissions\":{\"admin\":false,\"maintain\":false,\"push\":"
            + push
            + ",\"triage\":"
            + push
            + ",\"pull\":true}}");
  }

  private static String bearer(RecordedRequest request) {
    String header = request.getHeaders().get("Authorization");
    return header != null && header.startsWith("Bearer ")
        ? header.substring("Bearer ".length())
        : "";
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
