package dev.teammemory.daemon.cli;

import static dev.teammemory.daemon.testing.TmemRun.tmem;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.SyncState;
import dev.teammemory.daemon.sync.SyncTarget;
import dev.teammemory.daemon.testing.TmemRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfirmDeletesCommandTest {

  private static final String SERVER = "http://127.0.0.1:1";

  @TempDir Path root;
  private Environment environment;
  private Path team;
  private Path stateDir;

  @BeforeEach
  void project() throws IOException {
    environment =
        new Environment(
            Map.of("XDG_STATE_HOME", root.resolve("state").toString(), "TMEM_SERVER_URL", SERVER),
            root.resolve("home"),
            root);
    team = Files.createDirectories(root.resolve("team"));
    stateDir =
        SyncTarget.of(SERVER, Project.unregistered("acme/widgets", team), StateHome.of(environment))
            .stateDir();
    Files.createDirectories(stateDir);
  }

  private void saveState(SyncState.DeleteHold hold) throws IOException {
    SyncState initial = SyncState.initial(SERVER, "acme/widgets", team.toString());
    SyncState state =
        new SyncState(
            initial.serverUrl(),
            initial.repo(),
            initial.teamDir(),
            initial.repositoryChecksum(),
            Map.of(),
            Map.of(),
            0,
            List.of(),
            Map.of(),
            List.of(),
            Map.of(),
            Map.of(),
            null,
            null,
            null,
            null,
            null,
            Map.of("a.md", "2026-11-24T10:00:00Z", "b.md", "2026-11-24T10:00:00Z"),
            hold,
            null,
            null);
    Files.write(stateDir.resolve("sync-state.json"), new ObjectMapper().writeValueAsBytes(state));
  }

  @Test
  void confirmingHeldDeletesLeavesTheConfirmationForTheSyncingProcess() throws IOException {
    saveState(
        new SyncState.DeleteHold(
            "the team folder is empty", List.of("a.md", "b.md"), "2026-11-24T10:00:00Z", false));

    TmemRun run =
        tmem(
            environment,
            "team",
            "confirm-deletes",
            "--team-dir",
            team.toString(),
            "--repo",
            "acme/widgets");

    assertThat(run.err()).isEmpty();
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "acme/widgets: confirmed 2 delete(s); they go out at the next `tmem sync` or daemon"
                + " start\n");
    assertThat(stateDir.resolve("confirm-deletes")).exists();
  }

  @Test
  void withNothingHeldItSaysSoAndLeavesNothing() throws IOException {
    saveState(null);

    TmemRun run =
        tmem(
            environment,
            "team",
            "confirm-deletes",
            "--team-dir",
            team.toString(),
            "--repo",
            "acme/widgets");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEqualTo("acme/widgets: no deletes are held\n");
    assertThat(stateDir.resolve("confirm-deletes")).doesNotExist();
  }
}
