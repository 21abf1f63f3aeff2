package dev.teammemory.daemon.home;

import java.nio.file.Path;
import java.util.Map;

/** The daemon's own state folder: {@code ${XDG_STATE_HOME:-~/.local/state}/tmem}. */
public final class StateHome {

  private StateHome() {}

  public static Path of(Map<String, String> environment) {
    String configured = environment.get("XDG_STATE_HOME");
    Path base =
        configured == null || configured.isBlank() || !Path.of(configured).isAbsolute()
            ? Path.of(System.getProperty("user.home"), ".local", "state")
            : Path.of(configured);
    return base.resolve("tmem");
  }
}
