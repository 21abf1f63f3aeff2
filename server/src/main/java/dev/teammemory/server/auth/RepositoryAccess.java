package dev.teammemory.server.auth;

/**
 * The port that says what a caller may do with a repository. The static tokens file is one
 * implementation; GitHub's repository permissions (cached in {@code repo_access}) will be another.
 */
public interface RepositoryAccess {

  /** The caller's permission on the repository; {@link Permission#NONE} when it has none. */
  Permission permission(Caller caller, RepositorySlug repository);
}
