package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.model.AgentTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

  private void matchingFiles(int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Path folder = Files.createDirectories(directory.resolve("folder" + i % 7));
      Files.writeString(folder.resolve("note" + i + ".md"), "deploy " + i + "\n");
    }
  }

  private AgentTool.Result listMatches(GrepTool tool) {
    return tool.execute(JSON.createObjectNode().put("pattern", "deploy"));
  }

  @Test
  void aTreeWithMoreMatchesThanTheCapIsCutAtTheCapAndSaysSo() throws IOException {
    matchingFiles(GrepTool.MAX_RESULTS + 40);

    AgentTool.Result result = listMatches(new GrepTool(directory));

    assertThat(result.content().lines().filter(line -> line.endsWith(".md")))
        .hasSize(GrepTool.MAX_RESULTS);
    assertThat(result.content()).endsWith("\n(results cut at 250; narrow the search)");
  }

  @Test
  void exactlyTheCapOfMatchesIsNotCalledCut() throws IOException {
    matchingFiles(GrepTool.MAX_RESULTS);

    AgentTool.Result result = listMatches(new GrepTool(directory));

    assertThat(result.content().lines()).hasSize(GrepTool.MAX_RESULTS);
    assertThat(result.content()).doesNotContain("cut");
  }

  @Test
  void aWalkThatSpendsItsTimeBudgetStopsAndSaysTheAnswerIsIncomplete() throws IOException {
    matchingFiles(GrepTool.MAX_RESULTS + 40);

    AgentTool.Result result = listMatches(new GrepTool(directory, Duration.ZERO));

    assertThat(result)
        .isEqualTo(
            AgentTool.Result.ok(
                "No matches found\n(search stopped after 0 seconds; the answer is incomplete,"
                    + " narrow the path or pattern)"));
  }
}
