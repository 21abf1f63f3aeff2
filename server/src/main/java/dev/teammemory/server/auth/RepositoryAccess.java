package dev.teammemory.server.auth;

import java.util.List;

/**
 * What one authenticated caller may do with repositories. Authentication hands one out with the
 * caller: the static tokens file answers from its grants, GitHub from the repository's permissions
 * for the caller's own token (which stays inside the GitHub implementation).
 */
@FunctionalInterface
public interface RepositoryAccess {

  /** The caller's permission on the repository; {@link Permission#NONE} when it has none. */
  Permission permission(RepositorySlug repository);

  /**
   * The candidates the caller may read, in their order. Asked of many repositories at once (a
   * listing of stores), which GitHub answers with one listing rather than a call per repository.
   */
  default List<RepositorySlug> readable(List<RepositorySlug> candidates) {
    return candidates.stream().filter(slug -> permission(slug).allowsRead()).toList();
  }
}
