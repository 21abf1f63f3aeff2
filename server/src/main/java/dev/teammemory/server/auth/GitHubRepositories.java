package dev.teammemory.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.server.errors.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Asks GitHub's repository endpoint ({@code GET /repos/{owner}/{repo}}) what the token's user may
 * do: {@code permissions.push} is write, {@code permissions.pull} is read. GitHub answers {@code
 * 404} for a repository the user cannot see, which is {@link Permission#NONE}, and {@code 401} for
 * a token it no longer accepts. Blocking: it runs on the request's worker thread.
 */
@ApplicationScoped
class GitHubRepositories {

  private static final Logger LOG = Logger.getLogger(GitHubRepositories.class);

  /** At most this many pages of 100 repositories are listed for one user. */
  private static final int MAX_LISTING_PAGES = 50;

  private final GitHubConfig config;
  private final ObjectMapper json;
  private final HttpClient http;
  private final GitHubMetrics metrics;

  @Inject
  GitHubRepositories(GitHubConfig config, ObjectMapper json, GitHubMetrics metrics) {
    this.config = config;
    this.json = json;
    this.metrics = metrics;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(config.timeout())
            // A renamed or transferred repository answers 301 to its new location.
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
  }

  /**
   * The permission GitHub reports for the token's user on the repository.
   *
   * @throws ApiException {@code 401} when GitHub rejects the token, {@code 503} when it cannot
   *     answer
   */
  Permission permission(String token, RepositorySlug repository) {
    HttpRequest request =
        HttpRequest.newBuilder(uri(repository))
            .timeout(config.timeout())
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("User-Agent", "team-memory-server")
            .header("Authorization", "Bearer " + token)
            .GET()
            .build();
    HttpResponse<byte[]> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      metrics.call(GitHubMetrics.REPOSITORY, GitHubMetrics.UNAVAILABLE);
      LOG.warnf("GitHub could not be asked about %s: %s", repository, GitHubFailures.describe(e));
      throw GitHubFailures.unavailable("GitHub could not be reached to check your access");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw GitHubFailures.unavailable("the check of your access on GitHub was interrupted");
    }
    return switch (response.statusCode()) {
      case 200 -> permissionIn(response.body(), repository);
      case 404 -> refused(Permission.NONE);
      case 401 -> {
        metrics.call(GitHubMetrics.REPOSITORY, GitHubMetrics.REFUSED);
        throw Authentication.unauthorized(
            "GitHub no longer accepts your token (run 'tmem login' again)");
      }
      default -> refusedOrDown(response, repository);
    };
  }

  /**
   * Every repository the token's user can see, with its permission, from GitHub's {@code GET
   * /user/repos} (the user's own, collaborations and organisation memberships), page after page as
   * its {@code Link: rel="next"} leads.
   *
   * @throws ApiException {@code 401} when GitHub rejects the token, {@code 503} when it cannot
   *     answer
   */
  Map<RepositorySlug, Permission> readable(String token) {
    Map<RepositorySlug, Permission> listed = new LinkedHashMap<>();
    URI next = URI.create(config.apiBase() + "/user/repos?per_page=100");
    for (int page = 0; next != null && page < MAX_LISTING_PAGES; page++) {
      HttpResponse<byte[]> response = send(next, token, "the list of your repositories");
      switch (response.statusCode()) {
        case 200 -> {}
        case 401 -> {
          metrics.call(GitHubMetrics.REPOSITORIES, GitHubMetrics.REFUSED);
          throw Authentication.unauthorized(
              "GitHub no longer accepts your token (run 'tmem login' again)");
        }
        default -> {
          metrics.call(GitHubMetrics.REPOSITORIES, GitHubMetrics.UNAVAILABLE);
          LOG.warnf(
              "GitHub answered %d when asked for a user's repositories", response.statusCode());
          throw GitHubFailures.unavailable(
              "GitHub could not list your repositories (it answered "
                  + response.statusCode()
                  + ")");
        }
      }
      JsonNode repositories;
      try {
        repositories = json.readTree(response.body());
      } catch (IOException e) {
        metrics.call(GitHubMetrics.REPOSITORIES, GitHubMetrics.UNAVAILABLE);
        throw GitHubFailures.unavailable("GitHub gave an unreadable list of your repositories");
      }
      metrics.call(GitHubMetrics.REPOSITORIES, GitHubMetrics.OK);
      for (JsonNode repository : repositories) {
        RepositorySlug.parse(repository.path("full_name").asText(""))
            .ifPresent(slug -> listed.put(slug, permissionOf(repository.path("permissions"))));
      }
      next = nextPage(response.headers().firstValue("Link").orElse(""));
    }
    return listed;
  }

  /** The {@code rel="next"} target of a {@code Link} header, or null on the last page. */
  static URI nextPage(String link) {
    for (String part : link.split(",")) {
      String[] pieces = part.split(";");
      boolean isNext = false;
      for (int i = 1; i < pieces.length; i++) {
        isNext |= pieces[i].strip().replace(" ", "").equals("rel=\"next\"");
      }
      String target = pieces[0].strip();
      if (isNext && target.startsWith("<") && target.endsWith(">")) {
        return URI.create(target.substring(1, target.length() - 1));
      }
    }
    return null;
  }

  private static Permission permissionOf(JsonNode permissions) {
    if (permissions.path("admin").asBoolean(false)) {
      return Permission.ADMIN;
    }
    if (permissions.path("maintain").asBoolean(false)) {
      return Permission.REVIEW;
    }
    if (permissions.path("push").asBoolean(false)) {
      return Permission.WRITE;
    }
    return permissions.path("pull").asBoolean(false) ? Permission.READ : Permission.NONE;
  }

  private HttpResponse<byte[]> send(URI uri, String token, String what) {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(config.timeout())
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("User-Agent", "team-memory-server")
            .header("Authorization", "Bearer " + token)
            .GET()
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      metrics.call(GitHubMetrics.REPOSITORIES, GitHubMetrics.UNAVAILABLE);
      LOG.warnf("GitHub could not be asked for %s: %s", what, GitHubFailures.describe(e));
      throw GitHubFailures.unavailable("GitHub could not be reached for " + what);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw GitHubFailures.unavailable("asking GitHub for " + what + " was interrupted");
    }
  }

  private Permission refused(Permission permission) {
    metrics.call(GitHubMetrics.REPOSITORY, GitHubMetrics.REFUSED);
    return permission;
  }

  private Permission permissionIn(byte[] body, RepositorySlug repository) {
    JsonNode permissions;
    try {
      permissions = json.readTree(body).path("permissions");
    } catch (IOException e) {
      metrics.call(GitHubMetrics.REPOSITORY, GitHubMetrics.UNAVAILABLE);
      LOG.warnf("GitHub answered about %s with a body that is not JSON", repository);
      throw GitHubFailures.unavailable("GitHub gave an unreadable answer about your access");
    }
    metrics.call(GitHubMetrics.REPOSITORY, GitHubMetrics.OK);
    return permissionOf(permissions);
  }

  /**
   * A {@code 403} with requests left is GitHub refusing this token the repository (an
   * organization's SSO or IP allow list): no access. A spent rate limit and server errors are
   * outages.
   */
  private Permission refusedOrDown(HttpResponse<byte[]> response, RepositorySlug repository) {
    int status = response.statusCode();
    boolean rateLimited =
        status == 429
            || (status == 403
                && response.headers().firstValue("x-ratelimit-remaining").orElse("").equals("0"));
    if (status == 403 && !rateLimited) {
      LOG.infof("GitHub refused a token access to %s with 403", repository);
      return refused(Permission.NONE);
    }
    metrics.call(GitHubMetrics.REPOSITORY, GitHubMetrics.UNAVAILABLE);
    LOG.warnf("GitHub answered %d when asked about %s", status, repository);
    throw GitHubFailures.unavailable(
        rateLimited
            ? "GitHub's rate limit for your token is spent, so your access cannot be checked"
            : "GitHub could not check your access (it answered " + status + ")");
  }

  private URI uri(RepositorySlug repository) {
    return URI.create(
        config.apiBase()
            + "/repos/"
            + URLEncoder.encode(repository.owner(), StandardCharsets.UTF_8)
            + "/"
            + URLEncoder.encode(repository.name(), StandardCharsets.UTF_8));
  }
}
