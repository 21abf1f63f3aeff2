package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import dev.teammemory.protocol.Checksums;
import java.nio.file.Path;

/**
 * One folder synced with one repository on one server, and where its state lives: {@code <state
 * home>/projects/<repo>-<hash of server and folder>/}.
 */
public record SyncTarget(String serverUrl, String repo, Path teamDir, Path stateDir) {

  public SyncTarget {
    requireNonNull(serverUrl, "serverUrl is null");
    if (!RepoSlug.isValid(repo)) {
      throw new IllegalArgumentException("repo is not owner/name: " + repo);
    }
    teamDir = requireNonNull(teamDir, "teamDir is null").toAbsolutePath().normalize();
    stateDir = requireNonNull(stateDir, "stateDir is null").toAbsolutePath().normalize();
  }

  public static SyncTarget of(String serverUrl, Project project, Path stateHome) {
    String identity = serverUrl + "\n" + project.repo() + "\n" + project.teamDir();
    String hash =
        Checksums.ofContent(identity)
            .substring(Checksums.PREFIX.length(), Checksums.PREFIX.length() + 12);
    String name = project.repo().replace('/', '_') + "-" + hash;
    return new SyncTarget(
        serverUrl, project.repo(), project.teamDir(), stateHome.resolve("projects").resolve(name));
  }
}
