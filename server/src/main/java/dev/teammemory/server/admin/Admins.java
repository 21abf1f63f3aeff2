package dev.teammemory.server.admin;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.server.auth.Caller;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.errors.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import org.jboss.logging.Logger;

/** The check every admin endpoint makes after authentication: the caller must be an admin. */
@ApplicationScoped
class Admins {

  private static final Logger LOG = Logger.getLogger(Admins.class);

  private final AdminConfig config;
  private final RepositoryAuthorization authorization;

  @Inject
  Admins(AdminConfig config, RepositoryAuthorization authorization) {
    this.config = config;
    this.authorization = authorization;
  }

  /** The current caller, who is an admin; else {@code 403 forbidden} saying what to configure. */
  Caller require() {
    Caller caller = authorization.caller();
    Set<String> admins = config.callers().orElse(Set.of());
    if (admins.contains(caller.id())) {
      return caller;
    }
    LOG.infof("Refused: user %s is not an admin of this server", caller.user());
    throw ApiException.of(
        403,
        ErrorCodes.FORBIDDEN,
        admins.isEmpty()
            ? "this server has no admins: set TMEM_ADMIN_CALLERS to the admins' ids (see"
                + " docs/admin.md)"
            : "user " + caller.user() + " is not an admin of this server (TMEM_ADMIN_CALLERS)");
  }
}
