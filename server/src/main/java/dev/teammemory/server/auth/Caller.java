package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

/** Who sent a request, as the identity step established it: a user name, never the token. */
public record Caller(String user) {

  public Caller {
    requireNonNull(user, "user is null");
    if (user.isBlank()) {
      throw new IllegalArgumentException("user is blank");
    }
  }
}
