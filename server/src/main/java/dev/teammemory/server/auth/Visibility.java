package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * The repositories one caller can see, in the shape a listing's query starts from, so that a
 * listing costs what its caller can see and not what the server holds: every repository, or those
 * named and every repository of the owners named (case-insensitive keys, as {@link
 * RepositorySlug#key()}).
 */
public sealed interface Visibility {

  /** A caller who can see every repository on the server ({@code *} in the static tokens file). */
  record Everything() implements Visibility {}

  /**
   * @param slugKeys the keys of the repositories the caller can see one by one
   * @param ownerKeys the owners (lower case) all of whose repositories the caller can see
   */
  record Some(Set<String> slugKeys, Set<String> ownerKeys) implements Visibility {
    public Some {
      slugKeys = Set.copyOf(requireNonNull(slugKeys, "slugKeys is null"));
      ownerKeys = Set.copyOf(requireNonNull(ownerKeys, "ownerKeys is null"));
    }
  }
}
