package dev.teammemory.daemon.files;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  @TempDir Path directory;

  private Stream<String> names() throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(file -> file.getFileName().toString()).toList().stream();
    }
  }

  @Test
  void createWritesANewFileWholeWithItsMode() throws IOException {
    Path file = directory.resolve("summary.md");

    boolean created =
        AtomicFiles.create(
            file, "# Notes\n".getBytes(UTF_8), PosixFilePermissions.fromString("rw-------"));

    assertThat(created).isTrue();
    assertThat(file).hasContent("# Notes");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(names()).containsExactly("summary.md");
  }

  @Test
  void createLeavesAFileThatAnotherWriterCreatedFirst() throws IOException {
    Path file = Files.writeString(directory.resolve("summary.md"), "theirs");

    boolean created =
        AtomicFiles.create(
            file, "ours".getBytes(UTF_8), PosixFilePermissions.fromString("rw-------"));

    assertThat(created).isFalse();
    assertThat(file).hasContent("theirs");
    assertThat(names()).containsExactly("summary.md");
  }

  @Test
  void replacingAFileKeepsItsModeWhenNoneIsGiven() throws IOException {
    Path file = Files.writeString(directory.resolve("private.md"), "before");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

    AtomicFiles.write(file, "after");

    assertThat(file).hasContent("after");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void replacingAFileKeepsAModeWiderThanTheUmaskAllows() throws IOException {
    Path file = Files.writeString(directory.resolve("shared.md"), "before");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

    AtomicFiles.write(file, "after");

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-rw-rw-");
  }
}
