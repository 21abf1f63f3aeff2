package dev.teammemory.daemon.cli;

import dev.teammemory.daemon.command.ProjectOptions;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.sync.Project;
import java.nio.file.Path;
import java.util.List;

/** Which project a command about one project means. */
final class CurrentProject {

  private CurrentProject() {}

  /** The named project, else the only one, else the registered one containing {@code here}. */
  static Project of(ProjectOptions projects, Path stateHome, Path here) {
    List<Project> candidates = projects.select(stateHome);
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    for (Project candidate : candidates) {
      if (here.startsWith(candidate.teamDir())
          || candidate.checkout().map(here::startsWith).orElse(false)) {
        return candidate;
      }
    }
    throw UserError.usage(
        "several projects are registered and the current folder is in none of them: pass --repo"
            + " owner/name --team-dir DIR");
  }
}
