package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.model.AgentTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GlobToolTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;

  private AgentTool.Result glob(GlobTool tool, String pattern) {
    return tool.execute(JSON.createObjectNode().put("pattern", pattern));
  }

  private void files(int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Path folder = Files.createDirectories(directory.resolve("folder" + i % 7));
      Files.writeString(folder.resolve("note" + i + ".md"), "note " + i);
    }
  }

  @Test
  void aTreeLargerThanTheCapIsListedUpToTheCapAndSaysItWasCut() throws IOException {
    files(GlobTool.MAX_FILES + 50);

    AgentTool.Result result = glob(new GlobTool(directory), "**");

    assertThat(result.isError()).isFalse();
    assertThat(result.content().lines().filter(line -> line.endsWith(".md")))
        .hasSize(GlobTool.MAX_FILES);
    assertThat(result.content())
        .endsWith(
            "\n(listing cut at 100 files, newest first among those found;"
                + " narrow the path or pattern)");
  }

  @Test
  void aTreeOfExactlyTheCapIsNotCalledCut() throws IOException {
    files(GlobTool.MAX_FILES);

    AgentTool.Result result = glob(new GlobTool(directory), "**");

    assertThat(result.content().lines()).hasSize(GlobTool.MAX_FILES);
    assertThat(result.content()).doesNotContain("cut");
  }

  @Test
  void aWalkThatSpendsItsTimeBudgetStopsAndSaysTheListingIsIncomplete() throws IOException {
    files(GlobTool.MAX_FILES + 50);

    AgentTool.Result result = glob(new GlobTool(directory, Duration.ZERO), "**");

    assertThat(result)
        .isEqualTo(
            AgentTool.Result.ok(
                "No files found\n(search stopped after 0 seconds; the answer is incomplete,"
                    + " narrow the path or pattern)"));
  }
}
