package dev.teammemory.daemon.cli;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.StoredLogin;
import dev.teammemory.daemon.sync.GitCheckout;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.daemon.sync.ProjectRegistry;
import dev.teammemory.daemon.sync.RepoSlug;
import dev.teammemory.daemon.sync.TeamFolderHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tmem add [DIR]}: registers a git checkout's team memory for the daemon to serve. */
@Command(
    name = "add",
    mixinStandardHelpOptions = true,
    description =
        "Registers a project for `tmem daemon` and `tmem sync`: its team folder (<auto-memory"
            + " dir>/team/) and its GitHub repository (from `git remote get-url origin`).")
public final class AddCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "DIR",
      description = "A folder in the git checkout (default: the current folder).")
  Path directory;

  @Option(
      names = "--repo",
      paramLabel = "owner/name",
      description = "The GitHub repository (default: from origin).")
  String repo;

  @Option(
      names = "--team-dir",
      paramLabel = "DIR",
      description = "The team folder (default: <auto-memory dir>/team/ of the checkout).")
  Path teamDir;

  /**
   * The repository of an origin on github.com or on the GitHub host of a stored login (a GitHub
   * Enterprise Server the developer logged in through).
   */
  private static String repositoryOf(String origin, Path checkout) {
    Set<String> hosts = new LinkedHashSet<>();
    hosts.add("github.com");
    hosts.addAll(StoredLogin.githubHosts(System.getenv()));
    for (String host : hosts) {
      Optional<String> slug = GitCheckout.repoOf(origin, host);
      if (slug.isPresent()) {
        return slug.get();
      }
    }
    throw UserError.usage(
        "origin of "
            + checkout
            + " ("
            + GitCheckout.withoutUserInfo(origin)
            + ") is not a repository on "
            + String.join(" or ", hosts)
            + ": pass --repo owner/name");
  }

  @Override
  public Integer call() throws IOException {
    Path start = (directory == null ? Path.of("") : directory).toAbsolutePath().normalize();
    if (!Files.isDirectory(start)) {
      throw UserError.usage(start + " is not a folder: pass a folder inside a git checkout");
    }
    Optional<Path> checkout = GitCheckout.root(start);
    String slug = repo;
    if (slug == null) {
      if (checkout.isEmpty()) {
        throw UserError.usage(
            start
                + " is not in a git checkout: run `tmem add` inside one, or pass --repo owner/name --team-dir DIR");
      }
      Optional<String> origin = GitCheckout.originUrl(checkout.get());
      if (origin.isEmpty()) {
        throw UserError.usage(
            checkout.get() + " has no remote named origin: pass --repo owner/name");
      }
      slug = repositoryOf(origin.get(), checkout.get());
    } else if (!RepoSlug.isValid(slug)) {
      throw UserError.usage("--repo must be owner/name (a GitHub repository): " + slug);
    }
    Path team =
        teamDir != null
            ? teamDir
            : TeamFolderHome.choose(Environment.system(), checkout.orElse(start));
    Project project = new Project(slug, team, checkout);
    Path stateHome = StateHome.of(System.getenv());
    boolean added = new ProjectRegistry(stateHome).add(project);
    spec.commandLine()
        .getOut()
        .println(
            (added ? "registered " : "updated ")
                + project.repo()
                + ": "
                + project.teamDir()
                + " (a running `tmem daemon` serves it after a restart)");
    return ExitCode.OK;
  }
}
