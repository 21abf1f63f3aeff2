package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.model.AgentTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrepToolTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;

  private AgentTool.Result grep(String pattern) {
    return new GrepTool(directory)
        .execute(JSON.createObjectNode().put("pattern", pattern).put("output_mode", "content"));
  }

  @Test
  void aFileWithAByteThatIsNotUtf8IsStillSearched() throws IOException {
    Path notes = directory.resolve("notes.md");
    Files.write(notes, "caf\u00e9\ndeploy on Fridays\n".getBytes(StandardCharsets.ISO_8859_1));

    assertThat(grep("deploy")).isEqualTo(AgentTool.Result.ok(notes + ":2:deploy on Fridays"));
  }

  @Test
  void binaryFilesAreSkipped() throws IOException {
    Files.write(directory.resolve("image.bin"), new byte[] {'d', 'e', 'p', 'l', 'o', 'y', 0, 1});

    assertThat(grep("deploy")).isEqualTo(AgentTool.Result.ok("No matches found"));
  }
}
