package dev.teammemory.daemon.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateHomeTest {

  @Test
  void homeDecidesNotJavasUserHome() {
    assertThat(StateHome.of(Map.of("HOME", "/home/dev")))
        .isEqualTo(Path.of("/home/dev/.local/state/tmem"));
    assertThat(StateHome.of(new Environment(Map.of(), Path.of("/home/dev"), Path.of("/"))))
        .isEqualTo(Path.of("/home/dev/.local/state/tmem"));
  }

  @Test
  void anAbsoluteXdgStateHomeWinsAndARelativeOneIsIgnored() {
    assertThat(StateHome.of(Map.of("HOME", "/home/dev", "XDG_STATE_HOME", "/var/state")))
        .isEqualTo(Path.of("/var/state/tmem"));
    assertThat(StateHome.of(Map.of("HOME", "/home/dev", "XDG_STATE_HOME", "state")))
        .isEqualTo(Path.of("/home/dev/.local/state/tmem"));
  }
}
