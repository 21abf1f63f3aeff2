package dev.teammemory.server.auth;

import io.smallrye.config.ConfigMapping;
import java.nio.file.Path;
import java.util.Optional;

/** {@code tmem.auth.*}: how callers are identified. Nothing is enabled unless configured here. */
@ConfigMapping(prefix = "tmem.auth")
interface AuthenticationConfig {

  /**
   * {@code TMEM_AUTH_STATIC_TOKENS_FILE}: a file of {@code TOKEN USER REPOS ACCESS} lines for demos
   * and tests. Absent: no static tokens.
   */
  Optional<Path> staticTokensFile();
}
