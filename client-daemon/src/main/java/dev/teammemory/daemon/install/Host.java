package dev.teammemory.daemon.install;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The machine a service is installed on: its environment (home, {@code XDG_CONFIG_HOME}, {@code
 * PATH}), its operating system, and the java and {@code tmem.jar} the service will run. Tests build
 * one over a temporary home; only {@link #current()} looks at the real machine.
 *
 * @param environment variables and home directory
 * @param operatingSystem the {@code os.name} to install for
 * @param java the java executable the service runs
 * @param jar the {@code tmem.jar} the service runs
 */
record Host(Environment environment, String operatingSystem, Path java, Path jar) {

  Host {
    requireNonNull(environment, "environment is null");
    requireNonNull(operatingSystem, "operatingSystem is null");
    java = java.toAbsolutePath().normalize();
    jar = jar.toAbsolutePath().normalize();
  }

  /** This process: its environment, the JVM running it, and the jar it was started from. */
  static Host current() {
    return new Host(
        Environment.system(),
        System.getProperty("os.name"),
        Path.of(System.getProperty("java.home"), "bin", "java"),
        runningJar());
  }

  private static Path runningJar() {
    Path location;
    try {
      location = Path.of(Host.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | SecurityException e) {
      throw UserError.problem(
          "could not tell which tmem.jar is running ("
              + e.getMessage()
              + "); run the install from the packaged tmem: ./tmem daemon install");
    }
    if (!Files.isRegularFile(location) || !location.getFileName().toString().endsWith(".jar")) {
      throw UserError.usage(
          "this tmem runs from "
              + location
              + ", not from a jar a service can start; build and use the packaged one:"
              + " ./tmem daemon install");
    }
    return location;
  }

  /**
   * {@code $XDG_CONFIG_HOME} when it is an absolute path (the XDG rule), else {@code ~/.config}.
   */
  Path configHome() {
    return environment
        .get("XDG_CONFIG_HOME")
        .map(Path::of)
        .filter(Path::isAbsolute)
        .orElse(environment.home().resolve(".config"));
  }

  /** The daemon's settings file, read by the service at every start. */
  Path environmentFile() {
    return configHome().resolve("tmem").resolve("env");
  }

  /** The first executable of that name on {@code PATH}. */
  Optional<Path> findExecutable(String name) {
    String path = environment.get("PATH").orElse("");
    for (String directory : path.split(File.pathSeparator)) {
      if (directory.isBlank()) {
        continue;
      }
      Path candidate = Path.of(directory).resolve(name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
