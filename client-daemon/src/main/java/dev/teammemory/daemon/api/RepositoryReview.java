package dev.teammemory.daemon.api;

import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.ProjectRegistry;
import dev.teammemory.protocol.RepositorySettings;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a project's team changes wait for a reviewer before teammates get them, as the server's
 * {@code …/team_memory/settings} says for the repository the team folder is registered with (a
 * server without settings answers 404: review is off).
 */
final class RepositoryReview {

  /** What the server said, or that it could not be asked. */
  enum State {
    REQUIRED,
    OFF,
    UNKNOWN
  }

  private RepositoryReview() {}

  static State of(Environment project, Path teamDir) {
    Optional<String> repo = registeredRepository(project, teamDir);
    if (repo.isEmpty()) {
      return State.UNKNOWN;
    }
    ServerConnection connection;
    try {
      connection = ServerConnection.fromEnvironment(project.variables());
    } catch (UserError noServer) {
      return State.UNKNOWN;
    }
    try (TeamMemoryClient client = connection.client()) {
      return switch (client.settings(repo.get())) {
        case Response.Ok<RepositorySettings> ok ->
            ok.body().reviewRequired() ? State.REQUIRED : State.OFF;
        case Response.NotFound<RepositorySettings> none -> State.OFF;
        default -> State.UNKNOWN;
      };
    }
  }

  /** The repository {@code tmem add} registered the team folder with. */
  private static Optional<String> registeredRepository(Environment project, Path teamDir) {
    Path wanted = real(teamDir);
    try {
      return new ProjectRegistry(StateHome.of(project))
          .projects().stream()
              .filter(registered -> real(registered.teamDir()).equals(wanted))
              .map(Project::repo)
              .findFirst();
    } catch (IOException | RuntimeException unreadable) {
      return Optional.empty();
    }
  }

  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException absent) {
      return path.toAbsolutePath().normalize();
    }
  }
}
