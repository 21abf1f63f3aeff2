package dev.teammemory.daemon.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example in docs/memory-engine.md ("The engine as a library"), run as written: the engine on
 * its own, without tmem, finds a project's memory folder and recalls what a prompt needs.
 */
class LibraryExampleTest {

  @TempDir Path home;

  @Test
  void aProgramRecallsAProjectsMemoriesWithTheEngineAlone() throws IOException {
    Path project = Files.createDirectories(home.resolve("src/widgets"));
    Environment environment = new Environment(Map.of("HOME", home.toString()), home, project);
    Path memory = Files.createDirectories(MemoryLocation.resolve(environment).directory());
    Files.writeString(
        memory.resolve("deploys.md"),
        """
        ---
        name: deploys
        description: how the widgets service is deployed to staging and production
        type: project
        ---
        Deploys go through the release pipeline; staging first, production after sign-off.
        """);

    // --- the example, as docs/memory-engine.md shows it ---
    SessionRecall recall =
        new SessionRecall(
            ClaudeLayout.of(environment),
            new OfflineLanguageModel("a library example needs no model"),
            Clock.systemUTC());
    RecallReport report =
        recall.recall(environment, "how do we deploy to production?", Optional.empty(), List.of());
    // --- end of the example ---

    assertThat(report.memories())
        .extracting(RecalledMemory::filename)
        .containsExactly("deploys.md");
    assertThat(report.memories().get(0).content()).contains("staging first");
  }
}
