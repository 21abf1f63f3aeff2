package dev.teammemory.daemon.command;

import dev.teammemory.daemon.home.Environment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --cwd DIR}: the project a command works for, when it is not the current directory. */
public final class ProjectDirectoryOption {

  @Option(
      names = "--cwd",
      paramLabel = "DIR",
      description = "The project directory (default: the current one).")
  Path cwd;

  /**
   * The environment as seen from {@code --cwd}, or the one given without it.
   *
   * @throws UserError a usage error when {@code --cwd} is not a directory
   */
  public Environment inProject(Environment environment) {
    return directory(environment, cwd).map(environment::withWorkingDirectory).orElse(environment);
  }

  /** {@code --cwd} against the working directory, unchecked; the working directory without it. */
  public Path unchecked(Environment environment) {
    return cwd == null
        ? environment.workingDirectory()
        : environment.workingDirectory().resolve(cwd);
  }

  /**
   * A {@code --cwd} option's directory, resolved against the working directory.
   *
   * @throws UserError a usage error when it is not a directory
   */
  public static Optional<Path> directory(Environment environment, Path cwd) {
    if (cwd == null) {
      return Optional.empty();
    }
    Path directory = environment.workingDirectory().resolve(cwd);
    if (!Files.isDirectory(directory)) {
      throw UserError.usage("--cwd " + cwd + " is not a directory; give the project's directory");
    }
    return Optional.of(directory);
  }
}
