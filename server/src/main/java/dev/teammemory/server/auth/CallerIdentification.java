package dev.teammemory.server.auth;

import java.util.Optional;

/**
 * The identity step: who a bearer token belongs to. The static tokens file is one implementation; a
 * GitHub implementation will ask GitHub's user endpoint (through quarkus-oidc) instead.
 */
interface CallerIdentification {

  /** The caller the token belongs to, or empty when the token is unknown. */
  Optional<Caller> identify(String bearerToken);
}
