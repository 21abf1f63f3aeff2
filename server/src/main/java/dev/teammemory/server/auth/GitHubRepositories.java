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
    if (permissions.path("push").asBoolean(false)) {
      return Permission.WRITE;
    }
    return permissions.path("pull").asBoolean(false) ? Permission.READ : Permission.NONE;
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
