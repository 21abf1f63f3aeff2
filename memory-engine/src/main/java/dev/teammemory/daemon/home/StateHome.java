package dev.teammemory.daemon.home;

import java.nio.file.Path;
import java.util.Map;

/**
 * The daemon's own state folder, one resolution for the daemon, the commands and the hooks: {@code
 * $XDG_STATE_HOME/tmem} when that is an absolute path, else {@code $HOME/.local/state/tmem}. {@code
 * $HOME} wins over Java's {@code user.home}, as it does for the agent (Node's {@code
 * os.homedir()}).
 */
public final class StateHome {

  private StateHome() {}

  public static Path of(Environment environment) {
    return of(environment.variables(), environment.home());
  }

  /** The state folder for these variables, with the home directory {@code $HOME} names. */
  public static Path of(Map<String, String> variables) {
    String home = variables.getOrDefault("HOME", "");
    return of(variables, Path.of(home.isBlank() ? System.getProperty("user.home") : home));
  }

  private static Path of(Map<String, String> variables, Path home) {
    String configured = variables.get("XDG_STATE_HOME");
    Path base =
        configured == null || configured.isBlank() || !Path.of(configured).isAbsolute()
            ? home.resolve(".local").resolve("state")
            : Path.of(configured);
    return base.resolve("tmem").toAbsolutePath().normalize();
  }
}
