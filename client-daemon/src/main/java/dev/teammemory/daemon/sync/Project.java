package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One folder the daemon keeps in sync: the repository it belongs to, its {@code team/} folder and,
 * when it was registered from one, the git checkout it came from.
 */
public record Project(String repo, Path teamDir, Optional<Path> checkout) {

  public Project {
    if (!RepoSlug.isValid(repo)) {
      throw new IllegalArgumentException("repo is not owner/name: " + repo);
    }
    teamDir = requireNonNull(teamDir, "teamDir is null").toAbsolutePath().normalize();
    checkout =
        requireNonNull(checkout, "checkout is null").map(p -> p.toAbsolutePath().normalize());
  }

  /** A folder served without registration ({@code --team-dir DIR --repo owner/name}). */
  public static Project unregistered(String repo, Path teamDir) {
    return new Project(repo, teamDir, Optional.empty());
  }
}
