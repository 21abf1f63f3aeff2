package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.teammemory.daemon.model.AgentTool;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BashToolTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;

  @Test
  void aCommandThatCannotStartIsDescribedInWordsNotByExceptionClass() {
    Path missing = directory.resolve("gone");

    AgentTool.Result result =
        new BashTool(missing).execute(JSON.createObjectNode().put("command", "ls"));

    assertThat(result.isError()).isTrue();
    assertThat(result.content())
        .startsWith("the command could not run: ")
        .contains("No such file or directory")
        .doesNotContain("IOException");
  }
}
