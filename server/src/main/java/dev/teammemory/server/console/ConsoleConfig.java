package dev.teammemory.server.console;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The console's settings ({@code TMEM_CONSOLE_*}); docs/console.md describes them. */
@ConfigMapping(prefix = "tmem.console")
interface ConsoleConfig {

  /**
   * The AES key (32 bytes, base64) that encrypts the credential of every session: every replica
   * needs the same one. Without it the server makes one up at boot, and sessions end with the
   * process; the embedded demo keeps one in its data folder.
   */
  Optional<String> key();

  /** How long a session lasts after sign-in. */
  @WithDefault("12h")
  Duration sessionTtl();

  /** How long a sign-in code minted for {@code tmem console} may be used (once). */
  @WithDefault("2m")
  Duration codeTtl();
}
