package dev.teammemory.daemon.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextFilesTest {

  @TempDir Path directory;

  @Test
  void aStrictHeadCutThroughACharacterDropsTheCutCharacterAndSaysTheFileGoesOn()
      throws IOException {
    // "café" is five bytes; four cut the é in half.
    Path file = Files.writeString(directory.resolve("notes.md"), "café");

    assertThat(TextFiles.strictHead(file, 4)).contains(new TextFiles.Head("caf", false, 5));
  }

  @Test
  void aStrictHeadOfBytesThatAreNotUtf8IsEmptyWhereTheLenientHeadReplacesThem() throws IOException {
    Path file =
        Files.write(directory.resolve("latin1.md"), "café\n".getBytes(StandardCharsets.ISO_8859_1));

    assertThat(TextFiles.strictHead(file, 100)).isEmpty();
    assertThat(TextFiles.head(file, 100)).isEqualTo(new TextFiles.Head("caf\uFFFD\n", true, 5));
  }

  @Test
  void readExactlyIsEmptyForAFileLargerThanAskedAndTheWholeTextOtherwise() throws IOException {
    Path file = Files.writeString(directory.resolve("notes.md"), "deploy on Fridays\n");

    assertThat(TextFiles.readExactly(file, 5)).isEmpty();
    assertThat(TextFiles.readExactly(file, 100)).isEqualTo(Optional.of("deploy on Fridays\n"));
  }
}
