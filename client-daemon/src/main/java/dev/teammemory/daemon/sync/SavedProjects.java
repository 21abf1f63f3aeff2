package dev.teammemory.daemon.sync;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Read-only access to the projects' saved state, for {@code tmem status}. */
public final class SavedProjects {

  private SavedProjects() {}

  /** One project's saved state and where it lives. */
  public record Saved(Path stateDir, SyncState state) {}

  /** Every saved state under {@code <state home>/projects}; unreadable ones are left out. */
  public static List<Saved> all(Path stateHome) throws IOException {
    Path projects = stateHome.resolve("projects");
    if (!Files.isDirectory(projects)) {
      return List.of();
    }
    List<Saved> saved = new ArrayList<>();
    try (Stream<Path> folders = Files.list(projects)) {
      for (Path folder : folders.sorted().toList()) {
        try {
          new SyncStateStore(folder).read().ifPresent(state -> saved.add(new Saved(folder, state)));
        } catch (UncheckedIOException unreadable) {
          // Shown as never synced; the daemon moves it aside at its next start.
        }
      }
    }
    return saved;
  }

  /** The pid of the process syncing the project now, or empty when none does. */
  public static Optional<String> runningPid(Path stateDir) {
    if (!Files.exists(stateDir.resolve("lock"))) {
      return Optional.empty();
    }
    try {
      Optional<ProjectLock> lock = ProjectLock.tryAcquire(stateDir);
      if (lock.isPresent()) {
        lock.get().close();
        return Optional.empty();
      }
      return Optional.of(ProjectLock.holder(stateDir));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The local changes not yet on the server, computed from the folder now (so edits made while no
   * daemon runs count): files whose checksum differs from the server's and the last synced one,
   * minus files skipped for this very content.
   */
  public static List<String> pending(SyncState state) {
    LocalSnapshot snapshot;
    try {
      snapshot = new TeamFolder(Path.of(state.teamDir())).scan();
    } catch (IOException | RuntimeException e) {
      return state.pendingKeys();
    }
    List<String> pending = new ArrayList<>();
    for (LocalFile file : snapshot.files().values()) {
      String key = file.key();
      String checksum = file.checksum();
      if (checksum.equals(state.serverChecksums().get(key))
          || checksum.equals(state.syncedChecksums().get(key))) {
        continue;
      }
      SyncState.KeptDeletion kept = state.keptDeletions().get(key);
      SyncState.Skip skip = state.skipped().get(key);
      if ((kept != null && kept.localChecksum().equals(checksum))
          || (skip != null && checksum.equals(skip.checksum()))) {
        continue;
      }
      pending.add(key);
    }
    return pending;
  }
}
