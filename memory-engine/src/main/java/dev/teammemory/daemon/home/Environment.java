package dev.teammemory.daemon.home;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The process environment, read once at the edge and passed down, so that tests can give their own
 * {@code CLAUDE_CONFIG_DIR}, {@code HOME} and working directory and never touch the real {@code
 * ~/.claude}.
 *
 * @param variables environment variables
 * @param home the user's home directory
 * @param workingDirectory the directory the agent (or the command) runs in
 */
public record Environment(Map<String, String> variables, Path home, Path workingDirectory) {

  private static final Set<String> TRUTHY = Set.of("1", "true", "yes", "on");
  private static final Set<String> FALSY = Set.of("0", "false", "no", "off");

  public Environment {
    variables = Map.copyOf(variables);
    requireNonNull(home, "home is null");
    requireNonNull(workingDirectory, "workingDirectory is null");
    home = home.toAbsolutePath().normalize();
    workingDirectory = workingDirectory.toAbsolutePath().normalize();
  }

  /**
   * This process's environment. Only the command-line edge calls this. The home directory is {@code
   * $HOME} when set, as Node's {@code os.homedir()} has it, so that the agent and the daemon agree
   * on {@code ~/.claude}; Java's {@code user.home} ignores {@code $HOME}.
   */
  public static Environment system() {
    Map<String, String> variables = System.getenv();
    String home = variables.getOrDefault("HOME", "");
    return new Environment(
        variables,
        Path.of(home.isBlank() ? System.getProperty("user.home") : home),
        Path.of(System.getProperty("user.dir")));
  }

  /** A variable's value, or empty when it is unset or blank. */
  public Optional<String> get(String name) {
    return Optional.ofNullable(variables.get(name)).filter(value -> !value.isBlank());
  }

  /** Set to 1, true, yes or on (any case), as the reference reads switches. */
  public boolean isTruthy(String name) {
    return get(name)
        .map(value -> TRUTHY.contains(value.strip().toLowerCase(Locale.ROOT)))
        .orElse(false);
  }

  /** Set to 0, false, no or off: defined, and saying no. */
  public boolean isDefinedFalsy(String name) {
    return get(name)
        .map(value -> FALSY.contains(value.strip().toLowerCase(Locale.ROOT)))
        .orElse(false);
  }

  public Environment withWorkingDirectory(Path directory) {
    return new Environment(variables, home, directory);
  }

  /** The same environment with one variable set (added, or replaced). */
  public Environment with(String name, String value) {
    Map<String, String> changed = new java.util.HashMap<>(variables);
    changed.put(requireNonNull(name, "name is null"), requireNonNull(value, "value is null"));
    return new Environment(changed, home, workingDirectory);
  }
}
