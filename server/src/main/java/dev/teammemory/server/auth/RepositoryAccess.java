package dev.teammemory.server.auth;

/**
 * What one authenticated caller may do with repositories. Authentication hands one out with the
 * caller: the static tokens file answers from its grants, GitHub from the repository's permissions
 * for the caller's own token (which stays inside the GitHub implementation).
 */
public interface RepositoryAccess {

  /** The caller's permission on the repository; {@link Permission#NONE} when it has none. */
  Permission permission(RepositorySlug repository);

  /**
   * Every repository the caller may read, for a listing of stores to start from. GitHub answers it
   * with one listing of the user's repositories rather than a call per repository.
   */
  Visibility visible();
}
