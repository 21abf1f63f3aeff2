package dev.teammemory.daemon.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionContextTest {

  @TempDir Path directory;

  @Test
  void aTranscriptPathThatIsAFolderGivesTheUnknownContext() throws IOException {
    Path folder = Files.createDirectories(directory.resolve("session.jsonl"));

    assertThat(SessionContext.of(folder)).isEqualTo(SessionContext.UNKNOWN);
  }

  @Test
  void aTranscriptPathThatIsAFifoGivesTheUnknownContextWithoutWaiting() throws Exception {
    Path fifo = directory.resolve("session.jsonl");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

    assertThat(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> SessionContext.of(fifo)))
        .isEqualTo(SessionContext.UNKNOWN);
  }

  @Test
  void aMissingTranscriptGivesTheUnknownContext() {
    assertThat(SessionContext.of(directory.resolve("absent.jsonl")))
        .isEqualTo(SessionContext.UNKNOWN);
  }
}
