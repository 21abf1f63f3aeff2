package dev.teammemory.server.github;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * GitHub's REST API as the server uses it, with GitHub's response shapes, under a GitHub
 * Enterprise-style prefix ({@code /api/v3}) to prove the base URL is configurable: {@code GET
 * /user} for the token's user and {@code GET /repos/{owner}/{repo}} with the user's {@code
 * permissions}, and {@code GET /user/repos}, the user's repositories page by page with GitHub's
 * {@code Link} header. A test adds users and grants, and can make GitHub fail or vanish.
 */
public final class FakeGitHub implements AutoCloseable {

  /** How GitHub behaves for the next requests. */
  public enum Availability {
    UP,
    /** Every call answers {@code 502}, as GitHub's front end does during an incident. */
    FAILING,
    /** Nothing listens on GitHub's port: every connection is refused. */
    UNREACHABLE
  }

  private static final Pattern REPOSITORY = Pattern.compile("/api/v3/repos/([^/]+)/([^/?]+)");

  private final Dispatcher dispatcher =
      new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          return answer(request);
        }
      };
  private final int port;
  private final String apiUrl;
  private MockWebServer server;
  private final Map<String, User> usersByToken = new ConcurrentHashMap<>();
  private final Map<String, String> permissions = new ConcurrentHashMap<>();
  private final AtomicInteger userCalls = new AtomicInteger();
  private final AtomicInteger repositoryCalls = new AtomicInteger();
  private final AtomicInteger listingCalls = new AtomicInteger();

  /** Per login (lower case): the repositories granted one by one, as spelled, with the access. */
  private final Map<String, Map<String, String>> listable = new ConcurrentHashMap<>();

  private volatile int listingPageSize = 0;
  private volatile Availability availability = Availability.UP;
  private volatile Duration repositoryDelay = Duration.ZERO;

  /**
   * A token's holder, and the repositories the token reaches when it is narrower than its user (a
   * fine-grained token, or one an organisation's SSO has not authorised); empty: all of theirs.
   */
  private record User(String login, long id, Optional<Set<String>> only) {

    boolean reaches(String repository) {
      return only.isEmpty() || only.get().contains(repository.toLowerCase(Locale.ROOT));
    }
  }

  public FakeGitHub() {
    // An explicit port, because MockWebServer only sets SO_REUSEADDR then, and the port must be
    // free again at once when an unreachable GitHub comes back.
    port = freePort();
    server = listen(port);
    apiUrl = server.url("/api/v3").toString();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port for the fake GitHub", e);
    }
  }

  /** Listens on the port; the one just closed may take a moment to be free again. */
  private MockWebServer listen(int port) {
    IOException last = null;
    for (int attempt = 0; attempt < 50; attempt++) {
      MockWebServer listening = new MockWebServer();
      listening.setDispatcher(dispatcher);
      try {
        listening.start(port);
        return listening;
      } catch (IOException e) {
        last = e;
        listening.close();
        sleep();
      }
    }
    throw new UncheckedIOException("could not start the fake GitHub on port " + port, last);
  }

  private static void sleep() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while restarting the fake GitHub", e);
    }
  }

  /** The REST API base, as {@code TMEM_AUTH_GITHUB_API_URL} takes it. */
  public String apiUrl() {
    return apiUrl;
  }

  /** A user whose token GitHub accepts. */
  public void addUser(String token, String login, long id) {
    usersByToken.put(token, new User(login, id, Optional.empty()));
  }

  /**
   * Another token of a user, which reaches only the given repositories of theirs, as a fine-grained
   * token does: GitHub hides the others from it (404) and leaves them out of its list.
   */
  public void addNarrowToken(String token, String login, long id, String... repositories) {
    Set<String> only =
        Arrays.stream(repositories)
            .map(repository -> repository.toLowerCase(Locale.ROOT))
            .collect(Collectors.toUnmodifiableSet());
    usersByToken.put(token, new User(login, id, Optional.of(only)));
  }

  /** GitHub revokes the token: from now on it answers {@code 401} for it. */
  public void revoke(String token) {
    usersByToken.remove(token);
  }

  /**
   * The user's permission on {@code owner/name}, or on every repository of the owner with {@code
   * owner/*}: {@code "admin"}, {@code "maintain"}, {@code "write"} or {@code "read"}.
   */
  public void grant(String login, String repository, String access) {
    permissions.put(key(login, repository), access);
    if (!repository.endsWith("/*")) {
      listable
          .computeIfAbsent(login.toLowerCase(Locale.ROOT), user -> new ConcurrentSkipListMap<>())
          .put(repository, access);
    }
  }

  /** The user loses every permission on the repository: GitHub hides it (404). */
  public void hide(String login, String repository) {
    permissions.remove(key(login, repository));
    listable.getOrDefault(login.toLowerCase(Locale.ROOT), Map.of()).remove(repository);
  }

  /** At most this many repositories on a page of {@code /user/repos}, whatever was asked. */
  public void listingPageSize(int size) {
    this.listingPageSize = size;
  }

  /** How many pages of {@code /user/repos} were asked for. */
  public int listingCalls() {
    return listingCalls.get();
  }

  /** GitHub's behaviour from now on; unreachable stops listening, and the others listen again. */
  public synchronized void availability(Availability availability) {
    this.availability = availability;
    if (availability == Availability.UNREACHABLE && server != null) {
      server.close();
      server = null;
    } else if (availability != Availability.UNREACHABLE && server == null) {
      server = listen(port);
    }
  }

  /** GitHub takes this long to answer about a repository (so that requests overlap). */
  public void repositoryDelay(Duration delay) {
    this.repositoryDelay = delay;
  }

  /** How many times {@code /user} was asked. */
  public int userCalls() {
    return userCalls.get();
  }

  /** How many times a repository was asked. */
  public int repositoryCalls() {
    return repositoryCalls.get();
  }

  private MockResponse answer(RecordedRequest request) {
    String path = request.getUrl().encodedPath();
    if (path.equals("/api/v3/user")) {
      userCalls.incrementAndGet();
    } else if (path.equals("/api/v3/user/repos")) {
      listingCalls.incrementAndGet();
    } else if (path.startsWith("/api/v3/repos/")) {
      repositoryCalls.incrementAndGet();
    }
    if (availability == Availability.FAILING) {
      return json(502, "{\"message\":\"Server Error\"}");
    }
    User user = user(request.getHeaders().get("Authorization"));
    if (user == null) {
      return json(
          401,
          "{\"message\":\"Bad credentials\",\"documentation_url\":\"https://docs.github.com/rest\","
              + "\"status\":\"401\"}");
    }
    if (path.equals("/api/v3/user")) {
      return json(
          200,
          """
          {"login":"%s","id":%d,"node_id":"MDQ6VXNlcjE=","type":"User","site_admin":false,\
          "name":"%s","company":"Acme","public_repos":8,"created_at":"2011-01-25T18:44:36Z"}"""
              .formatted(user.login(), user.id(), user.login()));
    }
    if (path.equals("/api/v3/user/repos") && request.getMethod().equals("GET")) {
      return repositoriesOf(user, request);
    }
    Matcher repository = REPOSITORY.matcher(path);
    if (request.getMethod().equals("GET") && repository.matches()) {
      String slug = repository.group(1) + "/" + repository.group(2);
      String access = permissions.get(key(user.login(), slug));
      if (access == null) {
        access = permissions.get(key(user.login(), repository.group(1) + "/*"));
      }
      if (access == null || !user.reaches(slug)) {
        return json(
            404,
            "{\"message\":\"Not Found\",\"documentation_url\":"
                + "\"https://docs.github.com/rest/repos/repos#get-a-repository\",\"status\":\"404\"}");
      }
      return delayed(
          200,
          """
          {"id":1296269,"node_id":"MDEwOlJlcG9zaXRvcnkxMjk2MjY5","name":"%s","full_name":"%s",\
          "private":true,"owner":{"login":"%s","id":583231,"type":"Organization"},\
          "default_branch":"main","visibility":"private",\
          "permissions":%s}"""
              .formatted(repository.group(2), slug, repository.group(1), permissions(access)));
    }
    return json(404, "{\"message\":\"Not Found\",\"status\":\"404\"}");
  }

  /** GitHub's permissions object for a granted access: each level holds those below it. */
  private static String permissions(String access) {
    boolean admin = access.equals("admin");
    boolean maintain = admin || access.equals("maintain");
    boolean push = maintain || access.equals("write");
    return "{\"admin\":%s,\"maintain\":%s,\"push\":%s,\"triage\":%s,\"pull\":true}"
        .formatted(admin, maintain, push, push);
  }

  /** One page of the user's repositories, with {@code Link: rel="next"} while more follow. */
  private MockResponse repositoriesOf(User user, RecordedRequest request) {
    int perPage = intParameter(request, "per_page", 30);
    if (listingPageSize > 0) {
      perPage = Math.min(perPage, listingPageSize);
    }
    int page = intParameter(request, "page", 1);
    List<Map.Entry<String, String>> all =
        listable.getOrDefault(user.login().toLowerCase(Locale.ROOT), Map.of()).entrySet().stream()
            .filter(granted -> user.reaches(granted.getKey()))
            .toList();
    int from = Math.min((page - 1) * perPage, all.size());
    int to = Math.min(from + perPage, all.size());
    StringBuilder body = new StringBuilder("[");
    for (Map.Entry<String, String> granted : all.subList(from, to)) {
      String slug = granted.getKey();
      if (body.length() > 1) {
        body.append(',');
      }
      body.append(
          """
          {"id":%d,"name":"%s","full_name":"%s","private":true,          "owner":{"login":"%s","type":"Organization"},"default_branch":"main",          "permissions":%s}"""
              .formatted(
                  Math.abs(slug.hashCode()),
                  slug.substring(slug.indexOf('/') + 1),
                  slug,
                  slug.substring(0, slug.indexOf('/')),
                  permissions(granted.getValue())));
    }
    body.append(']');
    MockResponse.Builder response = new MockResponse.Builder(json(200, body.toString()));
    if (to < all.size()) {
      response.addHeader(
          "Link",
          "<%s/user/repos?per_page=%d&page=%d>; rel=\"next\", <%s/user/repos?per_page=%d&page=%d>; rel=\"last\""
              .formatted(
                  apiUrl.replaceAll("/$", ""),
                  perPage,
                  page + 1,
                  apiUrl.replaceAll("/$", ""),
                  perPage,
                  (all.size() + perPage - 1) / perPage));
    }
    return response.build();
  }

  private static int intParameter(RecordedRequest request, String name, int otherwise) {
    String value = request.getUrl().queryParameter(name);
    try {
      return value == null ? otherwise : Math.max(1, Integer.parseInt(value));
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  private MockResponse delayed(int status, String body) {
    return new MockResponse.Builder(json(status, body))
        .headersDelay(repositoryDelay.toMillis(), TimeUnit.MILLISECONDS)
        .build();
  }

  private User user(String authorization) {
    if (authorization == null) {
      return null;
    }
    String[] parts = authorization.strip().split("\\s+", 2);
    boolean bearer =
        parts.length == 2
            && (parts[0].equalsIgnoreCase("Bearer") || parts[0].equalsIgnoreCase("token"));
    return bearer ? usersByToken.get(parts[1]) : null;
  }

  private static String key(String login, String repository) {
    return (login + " " + repository).toLowerCase(Locale.ROOT);
  }

  private static MockResponse json(int status, String body) {
    return new MockResponse.Builder()
        .code(status)
        .addHeader("Content-Type", "application/json; charset=utf-8")
        .addHeader("X-GitHub-Media-Type", "github.v3; format=json")
        .body(body)
        .build();
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
