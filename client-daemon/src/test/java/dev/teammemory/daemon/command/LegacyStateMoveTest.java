package dev.teammemory.daemon.command;

import static java.nio.charset.StandardCharsets.UTF_8;
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

    assertThat(moved).isInstanceOf(LegacyStateMove.Result.Moved.class);
    assertThat(((LegacyStateMove.Result.Moved) moved).entries())
        .containsExactlyInAnyOrder(
            current.resolve("credentials.json"), current.resolve("projects"));
    assertThat(current.resolve("credentials.json")).hasContent("{\"version\":1}");
    assertThat(current.resolve("projects/acme_widgets-1/sync-state.json")).hasContent("{}");
    assertThat(current.resolve("recall")).hasContent("new");
    assertThat(legacy.resolve("recall")).hasContent("old");
    assertThat(LegacyStateMove.move(environment, javaUserHome))
        .isEqualTo(new LegacyStateMove.Result.Nothing());
  }

  @Test
  void nothingMovesWhenBothHomesAreTheSameOrXdgStateHomeIsSet() throws IOException {
    Path home = root.resolve("home");
    Files.createDirectories(home.resolve(".local/state/tmem"));
    Files.writeString(home.resolve(".local/state/tmem/credentials.json"), "{}");

    assertThat(LegacyStateMove.move(new Environment(Map.of(), home, home), home))
        .isEqualTo(new LegacyStateMove.Result.Nothing());
    assertThat(
            LegacyStateMove.move(
                new Environment(
                    Map.of("XDG_STATE_HOME", root.resolve("xdg").toString()), root, root),
                home))
        .isEqualTo(new LegacyStateMove.Result.Nothing());
    assertThat(home.resolve(".local/state/tmem/credentials.json")).exists();
  }

  @Test
  void stateARunningDaemonHoldsStaysWhereItIsAndOneLineSaysWhy() throws Exception {
    Path javaUserHome = root.resolve("login-home");
    Path legacy = Files.createDirectories(javaUserHome.resolve(".local/state/tmem"));
    Path project = Files.createDirectories(legacy.resolve("projects/acme_widgets-1"));
    Files.writeString(project.resolve("sync-state.json"), "{}");
    Path home = root.resolve("other-home");
    Environment environment = new Environment(Map.of("HOME", home.toString()), home, home);

    // A lock held by another process, as a running daemon holds its project's lock (Java's file
    // locks are POSIX record locks, which flock(1) does not take: another JVM holds it).
    Path source = root.resolve("HoldLock.java");
    Files.writeString(
        source,
        """
        import java.nio.channels.FileChannel;
        import java.nio.file.*;
        class HoldLock {
          public static void main(String[] args) throws Exception {
            try (FileChannel channel = FileChannel.open(Path.of(args[0]),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
              channel.lock();
              System.out.print("locked\\n");
              System.out.flush();
              System.in.read();
            }
          }
        }
        """);
    String java = ProcessHandle.current().info().command().orElse("java");
    Process holder =
        new ProcessBuilder(java, source.toString(), project.resolve("lock").toString())
            .redirectErrorStream(true)
            .start();
    try {
      assertThat(new String(holder.getInputStream().readNBytes(7), UTF_8)).isEqualTo("locked\n");

      var held = LegacyStateMove.move(environment, javaUserHome);

      assertThat(held)
          .isEqualTo(new LegacyStateMove.Result.LeftAlone(legacy, "a running tmem daemon uses it"));
      assertThat(project.resolve("sync-state.json")).exists();
      assertThat(home.resolve(".local/state/tmem/projects")).doesNotExist();
    } finally {
      holder.getOutputStream().close();
      holder.waitFor();
    }

    Files.createDirectories(home.resolve(".local/state/tmem"));
    Files.writeString(home.resolve(".local/state/tmem/projects.json"), "[]");
    assertThat(LegacyStateMove.move(environment, javaUserHome))
        .isEqualTo(
            new LegacyStateMove.Result.LeftAlone(
                legacy, home.resolve(".local/state/tmem") + " has projects of its own"));
    assertThat(project.resolve("sync-state.json")).exists();
  }
}
