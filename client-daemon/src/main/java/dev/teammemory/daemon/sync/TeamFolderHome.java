package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Where a repository's team folder lives, decided once and recorded in {@code projects.json}, so
 * that one checkout never has two: Claude Code's memory folder when it exists (its {@code team/}),
 * otherwise a memory folder under tmem's own state home ({@code <state>/memory/<checkout>/}), for a
 * developer whose agents are not Claude Code. When Claude Code's folder appears later, the memory
 * there is moved into it (a file already there is kept and tmem's copy is set beside it, nothing is
 * overwritten) and the record follows.
 *
 * <p>Agents other than Claude Code read the memory folder through this record: {@link #environment}
 * points the engine's resolution ({@link MemoryLocation}) at it.
 */
public final class TeamFolderHome {

  /** What came of settling a checkout's folder. */
  public record Settled(Path teamDir, boolean moved, List<Path> keptBeside) {
    public Settled {
      requireNonNull(teamDir, "teamDir is null");
      keptBeside = List.copyOf(keptBeside);
    }
  }

  private TeamFolderHome() {}

  /** The team folder a new registration of {@code checkout} gets. */
  public static Path choose(Environment environment, Path checkout) {
    Environment inCheckout = environment.withWorkingDirectory(checkout);
    MemoryLocation location = MemoryLocation.resolve(inCheckout);
    if (Files.isDirectory(location.directory())) {
      return location.teamDirectory();
    }
    return MemoryLocation.ownDirectory(inCheckout).resolve("team");
  }

  /**
   * The recorded team folder of the project registered from {@code checkout}, moved into Claude
   * Code's memory folder first when that now exists and the record still names tmem's own.
   */
  public static Optional<Settled> settle(Environment environment, Path checkout)
      throws IOException {
    Path stateHome = ClaudeLayout.of(environment).stateHome();
    ProjectRegistry registry = new ProjectRegistry(stateHome);
    Path normalized = checkout.toAbsolutePath().normalize();
    Optional<Project> recorded =
        registry.projects().stream()
            .filter(project -> project.checkout().equals(Optional.of(normalized)))
            .findFirst();
    if (recorded.isEmpty()) {
      return Optional.empty();
    }
    Environment inCheckout = environment.withWorkingDirectory(normalized);
    Path own = MemoryLocation.ownDirectory(inCheckout);
    Project project = recorded.get();
    // With Claude Code's folder there, the engine resolves to it rather than to tmem's own.
    MemoryLocation claude = MemoryLocation.resolve(inCheckout);
    if (!project.teamDir().startsWith(own)
        || claude.directory().startsWith(own)
        || !Files.isDirectory(claude.directory())) {
      return Optional.of(new Settled(project.teamDir(), false, List.of()));
    }
    List<Path> keptBeside = moveInto(own, claude.directory());
    registry.add(new Project(project.repo(), claude.teamDirectory(), project.checkout()));
    return Optional.of(new Settled(claude.teamDirectory(), true, keptBeside));
  }

  /** Moves every file of {@code from} into {@code to}; returns the copies set beside others. */
  private static List<Path> moveInto(Path from, Path to) throws IOException {
    List<Path> keptBeside = new ArrayList<>();
    if (!Files.isDirectory(from)) {
      return keptBeside;
    }
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            if (!attributes.isRegularFile()) {
              return FileVisitResult.CONTINUE;
            }
            Path target = to.resolve(from.relativize(file).toString());
            Files.createDirectories(target.getParent());
            if (Files.exists(target)) {
              if (!Arrays.equals(Files.readAllBytes(target), Files.readAllBytes(file))) {
                Path beside = beside(target);
                AtomicFiles.write(beside, Files.readAllBytes(file));
                keptBeside.add(beside);
              }
              Files.delete(file);
            } else {
              Files.move(file, target);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return keptBeside;
  }

  private static Path beside(Path target) {
    String name = target.getFileName().toString();
    String stem = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
    String suffix = name.endsWith(".md") ? ".md" : "";
    Path candidate = target.resolveSibling(stem + ".from-tmem" + suffix);
    for (int i = 2; Files.exists(candidate); i++) {
      candidate = target.resolveSibling(stem + ".from-tmem-" + i + suffix);
    }
    return candidate;
  }
}
