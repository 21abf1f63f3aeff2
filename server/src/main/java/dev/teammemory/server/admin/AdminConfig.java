package dev.teammemory.server.admin;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;
import java.util.Set;

/** {@code tmem.admin.*}: who may use the server's admin endpoints. Nobody unless configured. */
@ConfigMapping(prefix = "tmem.admin")
interface AdminConfig {

  /**
   * {@code TMEM_ADMIN_CALLERS}: the callers who are admins, by the stable id their permissions are
   * known under: {@code github:<numeric user id>} (it survives a renamed login) or {@code
   * token:<user>} for a user of the static tokens file. Absent: no admin.
   */
  Optional<Set<String>> callers();
}
