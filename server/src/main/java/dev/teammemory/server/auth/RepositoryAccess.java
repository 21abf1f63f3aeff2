package dev.teammemory.server.auth;

/**
 * What one authenticated caller may do with repositories. Authentication hands one out with the
 * caller: the static tokens file answers from its grants, GitHub from the repository's permissions
 * for the caller's own token (which stays inside the GitHub implementation).
 */
@FunctionalInterface
public interface RepositoryAccess {

  /** The caller's permission on the repository; {@link Permission#NONE} when it has none. */
  Permission permission(RepositorySlug repository);
}
