package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

/**
 * Who sent a request, as authentication established it, never with the token.
 *
 * @param user the name people know the caller by: the GitHub login, or the user of a static token;
 *     it is what history records as the author
 * @param id the caller's stable identity, which permissions are cached under: {@code github:<the
 *     numeric user id>}, which survives a renamed login, or {@code token:<user>}
 */
public record Caller(String user, String id) {

  public Caller {
    requireNonNull(user, "user is null");
    requireNonNull(id, "id is null");
    if (user.isBlank() || id.isBlank()) {
      throw new IllegalArgumentException("user and id must not be blank");
    }
  }

  /** A user of the static tokens file. */
  static Caller ofStaticToken(String user) {
    return new Caller(user, "token:" + user);
  }

  /** A GitHub user: the login people see, the numeric id that never changes. */
  static Caller ofGitHub(String login, long userId) {
    return new Caller(login, "github:" + userId);
  }
}
