package dev.teammemory.daemon.memory;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where auto memory lives and whether it is on, resolved as Claude Code resolves it:
 *
 * <ol>
 *   <li>{@code CLAUDE_COWORK_MEMORY_PATH_OVERRIDE} (an absolute path, used as given);
 *   <li>{@code autoMemoryDirectory} from the user's or the local settings ({@code ~/} expanded),
 *       never from a repository's committed settings;
 *   <li>{@code <base>/projects/<sanitized canonical git root>/memory}, so that worktrees share the
 *       main checkout's memory; outside git, the working directory stands in for the root. The base
 *       is the config home, or {@code CLAUDE_CODE_REMOTE_MEMORY_DIR} when set (a remote session's
 *       persistent storage).
 * </ol>
 *
 * Auto memory is off when {@code CLAUDE_CODE_DISABLE_AUTO_MEMORY} is truthy (a defined falsy value
 * forces it on), when {@code CLAUDE_CODE_SIMPLE} is truthy, in a remote session ({@code
 * CLAUDE_CODE_REMOTE}) without persistent storage for it ({@code CLAUDE_CODE_REMOTE_MEMORY_DIR}),
 * or when the setting {@code autoMemoryEnabled} is false.
 *
 * @param source where the directory came from, for a person reading {@code tmem memory path}
 * @param disabledBy what turned auto memory off, or empty when it is on
 * @param warnings settings that were ignored and why
 */
public record MemoryLocation(
    Path directory,
    String source,
    Optional<String> disabledBy,
    MemorySettings settings,
    List<String> warnings) {

  public static final String INDEX_FILE = "MEMORY.md";
  public static final String OVERRIDE_VARIABLE = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE";
  public static final String REMOTE_VARIABLE = "CLAUDE_CODE_REMOTE";
  public static final String REMOTE_MEMORY_VARIABLE = "CLAUDE_CODE_REMOTE_MEMORY_DIR";

  public MemoryLocation {
    requireNonNull(directory, "directory is null");
    requireNonNull(source, "source is null");
    requireNonNull(disabledBy, "disabledBy is null");
    requireNonNull(settings, "settings is null");
    warnings = List.copyOf(warnings);
  }

  public boolean enabled() {
    return disabledBy.isEmpty();
  }

  public Path index() {
    return directory.resolve(INDEX_FILE);
  }

  public Path teamDirectory() {
    return directory.resolve("team");
  }

  /** Team memory is in use when its folder exists (the sync creates it). */
  public boolean teamActive() {
    return Files.isDirectory(teamDirectory());
  }

  public static MemoryLocation resolve(Environment environment) {
    ClaudeLayout layout = ClaudeLayout.of(environment);
    Path projectRoot = realPath(environment.workingDirectory());
    MemorySettings settings = MemorySettings.load(layout, projectRoot);
    List<String> warnings = new ArrayList<>(settings.warnings());

    Path directory = null;
    String source = null;
    Optional<String> override = environment.get(OVERRIDE_VARIABLE);
    if (override.isPresent()) {
      Optional<Path> valid = validate(override.get(), false, environment.home());
      if (valid.isPresent()) {
        directory = valid.get();
        source = OVERRIDE_VARIABLE;
      } else {
        warnings.add("ignored " + OVERRIDE_VARIABLE + "=" + override.get() + ": " + INVALID);
      }
    }
    if (directory == null && settings.autoMemoryDirectory().isPresent()) {
      MemorySettings.Sourced<String> setting = settings.autoMemoryDirectory().get();
      Optional<Path> valid = validate(setting.value(), true, environment.home());
      if (valid.isPresent()) {
        directory = valid.get();
        source = "autoMemoryDirectory in " + setting.file();
      } else {
        warnings.add(
            "ignored autoMemoryDirectory \""
                + setting.value()
                + "\" in "
                + setting.file()
                + ": "
                + INVALID);
      }
    }
    if (directory == null) {
      Path base = GitRoot.canonical(projectRoot).orElse(projectRoot);
      Optional<String> remote = environment.get(REMOTE_MEMORY_VARIABLE);
      Path projects =
          remote.isPresent()
              ? environment.workingDirectory().resolve(remote.get()).resolve("projects")
              : layout.projectsDirectory();
      String project =
          ClaudeLayout.sanitize(Normalizer.normalize(base.toString(), Normalizer.Form.NFC));
      directory = projects.resolve(project).resolve("memory");
      source =
          remote.isPresent()
              ? REMOTE_MEMORY_VARIABLE + " (" + base + ")"
              : "default (" + base + ")";
      Path own = ownDirectory(layout, project);
      if (remote.isEmpty() && !Files.isDirectory(directory) && Files.isDirectory(own)) {
        // An agent other than Claude Code keeps the project's memory in tmem's own folder until
        // Claude Code's appears (and tmem moves it there).
        directory = own;
        source = "tmem's own memory folder (" + base + "; Claude Code has none for it)";
      }
    }
    return new MemoryLocation(
        directory, source, disabledBy(environment, settings), settings, warnings);
  }

  /**
   * Where tmem keeps a project's memory for agents other than Claude Code while Claude Code has no
   * memory folder for it: {@code <state home>/memory/<the project's name in Claude Code's layout>}.
   */
  public static Path ownDirectory(Environment environment) {
    ClaudeLayout layout = ClaudeLayout.of(environment);
    Path projectRoot = realPath(environment.workingDirectory());
    Path base = GitRoot.canonical(projectRoot).orElse(projectRoot);
    return ownDirectory(
        layout, ClaudeLayout.sanitize(Normalizer.normalize(base.toString(), Normalizer.Form.NFC)));
  }

  private static Path ownDirectory(ClaudeLayout layout, String project) {
    return layout.stateHome().resolve("memory").resolve(project);
  }

  private static final String INVALID =
      "it must be an absolute path deeper than the filesystem root (settings may also use ~/folder)";

  private static Optional<String> disabledBy(Environment environment, MemorySettings settings) {
    String switchName = "CLAUDE_CODE_DISABLE_AUTO_MEMORY";
    if (environment.isTruthy(switchName)) {
      return Optional.of(switchName + "=" + environment.get(switchName).orElseThrow());
    }
    if (environment.isDefinedFalsy(switchName)) {
      return Optional.empty();
    }
    if (environment.isTruthy("CLAUDE_CODE_SIMPLE")) {
      return Optional.of(
          "CLAUDE_CODE_SIMPLE=" + environment.get("CLAUDE_CODE_SIMPLE").orElseThrow());
    }
    if (environment.isTruthy(REMOTE_VARIABLE)
        && environment.get(REMOTE_MEMORY_VARIABLE).isEmpty()) {
      return Optional.of(
          REMOTE_VARIABLE
              + "="
              + environment.get(REMOTE_VARIABLE).orElseThrow()
              + " without "
              + REMOTE_MEMORY_VARIABLE
              + " (a remote session has nowhere to keep memory)");
    }
    return settings
        .autoMemoryEnabled()
        .filter(setting -> !setting.value())
        .map(setting -> "autoMemoryEnabled: false in " + setting.file());
  }

  /**
   * The reference's checks: absolute, not the root or near it, no NUL, and for settings no bare
   * {@code ~} that would make all of home a memory directory.
   */
  static Optional<Path> validate(String raw, boolean expandTilde, Path home) {
    String candidate = raw;
    if (expandTilde && (candidate.startsWith("~/") || candidate.startsWith("~\\"))) {
      String rest = candidate.substring(2);
      Path restPath;
      try {
        restPath = Path.of(rest.isEmpty() ? "." : rest).normalize();
      } catch (InvalidPathException invalid) {
        return Optional.empty();
      }
      String normalizedRest = restPath.toString();
      if (normalizedRest.isEmpty()
          || normalizedRest.equals(".")
          || normalizedRest.equals("..")
          || normalizedRest.startsWith("../")) {
        return Optional.empty();
      }
      candidate = home.resolve(rest).toString();
    }
    if (candidate.indexOf('\0') >= 0
        || candidate.startsWith("//")
        || candidate.startsWith("\\\\")) {
      return Optional.empty();
    }
    Path path;
    try {
      path = Path.of(candidate).normalize();
    } catch (InvalidPathException invalid) {
      return Optional.empty();
    }
    String text = path.toString().replaceAll("[/\\\\]+$", "");
    if (!path.isAbsolute() || text.length() < 3 || text.matches("[A-Za-z]:")) {
      return Optional.empty();
    }
    return Optional.of(Path.of(Normalizer.normalize(text, Normalizer.Form.NFC)));
  }

  /** The agent runs in the real path of its directory (the kernel resolves symlinks for cwd). */
  private static Path realPath(Path directory) {
    try {
      return directory.toRealPath();
    } catch (IOException | SecurityException missing) {
      return directory;
    }
  }
}
