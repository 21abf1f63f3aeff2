package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

/**
 * A repository the caller was found allowed to use for the request at hand, with the permission
 * found (a write of a caller who reviews is approved as it is made).
 */
public record AuthorizedRepository(Caller caller, RepositorySlug slug, Permission permission) {

  public AuthorizedRepository {
    requireNonNull(caller, "caller is null");
    requireNonNull(slug, "slug is null");
    requireNonNull(permission, "permission is null");
  }
}
