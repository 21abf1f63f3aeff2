package dev.teammemory.daemon.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LegacyStateMoveTest {

  @TempDir Path root;

  @Test
  void stateUnderJavasUserHomeIsMovedAndNothingIsOverwritten() throws IOException {
    Path javaUserHome = root.resolve("passwd-home");
    Path legacy = Files.createDirectories(javaUserHome.resolve(".local/state/tmem"));
    Files.writeString(legacy.resolve("credentials.json"), "{\"version\":1}");
    Files.createDirectories(legacy.resolve("projects/acme_widgets-1"));
    Files.writeString(legacy.resolve("projects/acme_widgets-1/sync-state.json"), "{}");
    Files.writeString(legacy.resolve("recall"), "old");
    Path home = root.resolve("home");
    Path current = Files.createDirectories(home.resolve(".local/state/tmem"));
    Files.writeString(current.resolve("recall"), "new");
    Environment environment = new Environment(Map.of("HOME", home.toString()), home, home);

    var moved = LegacyStateMove.move(environment, javaUserHome);

    assertThat(moved)
        .containsExactlyInAnyOrder(
            current.resolve("credentials.json"), current.resolve("projects"));
    assertThat(current.resolve("credentials.json")).hasContent("{\"version\":1}");
    assertThat(current.resolve("projects/acme_widgets-1/sync-state.json")).hasContent("{}");
    assertThat(current.resolve("recall")).hasContent("new");
    assertThat(legacy.resolve("recall")).hasContent("old");
    assertThat(LegacyStateMove.move(environment, javaUserHome)).isEmpty();
  }

  @Test
  void nothingMovesWhenBothHomesAreTheSameOrXdgStateHomeIsSet() throws IOException {
    Path home = root.resolve("home");
    Files.createDirectories(home.resolve(".local/state/tmem"));
    Files.writeString(home.resolve(".local/state/tmem/credentials.json"), "{}");

    assertThat(LegacyStateMove.move(new Environment(Map.of(), home, home), home)).isEmpty();
    assertThat(
            LegacyStateMove.move(
                new Environment(
                    Map.of("XDG_STATE_HOME", root.resolve("xdg").toString()), root, root),
                home))
        .isEmpty();
    assertThat(home.resolve(".local/state/tmem/credentials.json")).exists();
  }
}
