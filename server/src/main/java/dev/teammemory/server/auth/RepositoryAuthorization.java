package dev.teammemory.server.auth;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.server.errors.ApiException;
import dev.teammemory.server.logging.RequestLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The steps every repository request takes after authentication, in the protocol's order: the
 * {@code repo} parameter must be a GitHub slug ({@code 400}), the caller must be able to see the
 * repository ({@code 404}, so that its existence does not leak) and, to change it, write to it
 * ({@code 403}); reviewing changes needs the review level (GitHub's maintain or admin), changing a
 * repository's settings the admin level ({@code 403}).
 */
@ApplicationScoped
public class RepositoryAuthorization {

  private static final Logger LOG = Logger.getLogger(RepositoryAuthorization.class);

  private final CurrentCaller currentCaller;

  @Inject
  RepositoryAuthorization(CurrentCaller currentCaller) {
    this.currentCaller = currentCaller;
  }

  /** The repository named by {@code repo}, which the current caller may read. */
  public AuthorizedRepository read(String repo) {
    RepositorySlug slug = slug(repo);
    Caller caller = currentCaller.get();
    Permission permission = currentCaller.permission(slug);
    requireRead(caller, slug, permission);
    return new AuthorizedRepository(caller, slug);
  }

  /** The repository named by {@code repo}, which the current caller may write. */
  public AuthorizedRepository write(String repo) {
    RepositorySlug slug = slug(repo);
    Caller caller = currentCaller.get();
    Permission permission = currentCaller.permission(slug);
    requireRead(caller, slug, permission);
    if (!permission.allowsWrite()) {
      LOG.infof("Refused: user %s may only read %s", caller.user(), slug);
      throw ApiException.of(
          403,
          ErrorCodes.FORBIDDEN,
          "user "
              + caller.user()
              + " may read but not write "
              + slug
              + "; writing needs write (push) access");
    }
    return new AuthorizedRepository(caller, slug);
  }

  /** The repository named by {@code repo}, whose waiting changes the current caller may review. */
  public AuthorizedRepository review(String repo) {
    return atLeast(
        repo,
        Permission::allowsReview,
        "reviewing changes needs the review level (GitHub's maintain or admin permission)");
  }

  /** The repository named by {@code repo}, whose settings the current caller may change. */
  public AuthorizedRepository administer(String repo) {
    return atLeast(
        repo,
        Permission::allowsAdministration,
        "changing a repository's settings needs the admin level (GitHub's admin permission)");
  }

  private AuthorizedRepository atLeast(String repo, Predicate<Permission> allows, String needs) {
    RepositorySlug slug = slug(repo);
    Caller caller = currentCaller.get();
    Permission permission = currentCaller.permission(slug);
    requireRead(caller, slug, permission);
    if (!allows.test(permission)) {
      LOG.infof("Refused: user %s lacks the level for this on %s", caller.user(), slug);
      throw ApiException.of(
          403,
          ErrorCodes.FORBIDDEN,
          "user " + caller.user() + " may not do this on " + slug + "; " + needs);
    }
    return new AuthorizedRepository(caller, slug);
  }

  /** The current caller. */
  public Caller caller() {
    return currentCaller.get();
  }

  /**
   * What the current caller may do with a repository known to exist (a memory store's), which the
   * request is now about.
   */
  public Permission permission(RepositorySlug slug) {
    RequestLog.repository(slug.toString());
    return currentCaller.permission(slug);
  }

  /** Every repository the current caller may read, for a listing to start from. */
  public Visibility visible() {
    return currentCaller.visible();
  }

  private static void requireRead(Caller caller, RepositorySlug slug, Permission permission) {
    if (!permission.allowsRead()) {
      LOG.infof("Refused: user %s has no access to %s", caller.user(), slug);
      throw notFound(slug);
    }
  }

  /** The {@code 404} of a repository the caller cannot see, or that has no team memory yet. */
  public static ApiException notFound(RepositorySlug slug) {
    return ApiException.of(
        404,
        ErrorCodes.NOT_FOUND,
        "repository " + slug + " has no team memory, or you have no access to it");
  }

  private static RepositorySlug slug(String repo) {
    if (repo == null || repo.isEmpty()) {
      throw ApiException.of(
          400,
          ErrorCodes.INVALID_REPO,
          "the repo query parameter is required: " + RepositorySlug.RULES);
    }
    RepositorySlug slug =
        RepositorySlug.parse(repo)
            .orElseThrow(
                () ->
                    ApiException.of(
                        400,
                        ErrorCodes.INVALID_REPO,
                        "repo is not a GitHub repository slug (" + RepositorySlug.RULES + ")",
                        Map.of("repo", repo)));
    RequestLog.repository(slug.toString());
    return slug;
  }
}
