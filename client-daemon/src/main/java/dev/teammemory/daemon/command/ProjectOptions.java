package dev.teammemory.daemon.command;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.ProjectRegistry;
import dev.teammemory.daemon.sync.RepoSlug;
import dev.teammemory.daemon.sync.TeamFolderHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --team-dir DIR --repo owner/name}: serve one folder without registration (scripts, tests,
 * unusual setups); without them, every project {@code tmem add} registered.
 */
public final class ProjectOptions {

  @Option(
      names = "--team-dir",
      paramLabel = "DIR",
      description = "Sync this folder instead of the registered projects (needs --repo).")
  Path teamDir;

  @Option(
      names = "--repo",
      paramLabel = "owner/name",
      description = "The GitHub repository whose team memory --team-dir holds.")
  String repo;

  /** The projects to serve, or a usage error that says how to name one. */
  public List<Project> select(Path stateHome) {
    if (teamDir != null || repo != null) {
      if (teamDir == null || repo == null) {
        throw UserError.usage(
            "--team-dir and --repo go together: pass both, e.g. --team-dir ./memory/team --repo acme/widgets");
      }
      if (!RepoSlug.isValid(repo)) {
        throw UserError.usage("--repo must be owner/name (a GitHub repository): " + repo);
      }
      return List.of(Project.unregistered(repo, teamDir));
    }
    List<Project> projects = registered(stateHome);
    if (projects.isEmpty()) {
      throw UserError.usage(
          "no projects registered: run `tmem add` in a git checkout, or pass --team-dir DIR --repo owner/name");
    }
    return projects;
  }

  public boolean named() {
    return teamDir != null || repo != null;
  }

  /** The projects {@code tmem add} registered, perhaps none. */
  public static List<Project> registered(Path stateHome) {
    ProjectRegistry registry = new ProjectRegistry(stateHome);
    try {
      // A team folder recorded under tmem's own state home moves into Claude Code's memory folder
      // once that exists (TeamFolderHome), before anything syncs it.
      Environment environment = Environment.system();
      if (StateHome.of(environment).equals(stateHome)) {
        for (Project project : registry.projects()) {
          if (project.checkout().isPresent()) {
            TeamFolderHome.settle(environment, project.checkout().get());
          }
        }
      }
      return registry.projects();
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      throw UserError.usage(
          "cannot read the project registry "
              + registry.file()
              + " ("
              + e.getMessage()
              + "): fix or delete it, then run `tmem add` again");
    }
  }
}
