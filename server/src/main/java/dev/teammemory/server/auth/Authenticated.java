package dev.teammemory.server.auth;

import static java.util.Objects.requireNonNull;

/** The outcome of authentication: who the caller is and what decides its permissions. */
record Authenticated(Caller caller, RepositoryAccess access) {

  Authenticated {
    requireNonNull(caller, "caller is null");
    requireNonNull(access, "access is null");
  }
}
