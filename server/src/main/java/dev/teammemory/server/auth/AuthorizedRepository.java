package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

/** A repository the caller was found allowed to use for the request at hand. */
public record AuthorizedRepository(Caller caller, RepositorySlug slug) {

  public AuthorizedRepository {
    requireNonNull(caller, "caller is null");
    requireNonNull(slug, "slug is null");
  }
}
