package dev.teammemory.daemon.memory;

import static dev.teammemory.daemon.memory.MemoryScope.Audience.PERSONAL;
import static dev.teammemory.daemon.memory.MemoryScope.Audience.PROJECT_WIDE;
import static dev.teammemory.daemon.memory.MemoryScope.Audience.UNSTATED;
import static dev.teammemory.daemon.memory.MemoryScope.PRIVATE;
import static dev.teammemory.daemon.memory.MemoryScope.TEAM;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MemoryScopeTest {

  @ParameterizedTest(name = "{0} said to be {1} goes to {2}")
  @CsvSource({
    "USER, UNSTATED, PRIVATE",
    "USER, PROJECT_WIDE, PRIVATE",
    "FEEDBACK, UNSTATED, PRIVATE",
    "FEEDBACK, PERSONAL, PRIVATE",
    "FEEDBACK, PROJECT_WIDE, TEAM",
    "PROJECT, UNSTATED, TEAM",
    "PROJECT, PERSONAL, PRIVATE",
    "REFERENCE, UNSTATED, TEAM",
    "REFERENCE, PERSONAL, PRIVATE",
  })
  void typesRouteAsTheDesignSays(
      MemoryType type, MemoryScope.Audience audience, MemoryScope expected) {
    assertThat(MemoryScope.route(Optional.of(type), audience, true)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({"PROJECT", "REFERENCE", "FEEDBACK"})
  void withoutTeamMemoryEverythingIsPrivate(MemoryType type) {
    assertThat(MemoryScope.route(Optional.of(type), PROJECT_WIDE, false)).isEqualTo(PRIVATE);
  }

  @Test
  void anUnknownTypeStaysPrivateAndFilesUnderTeamAreTheTeams() {
    assertThat(MemoryScope.route(Optional.empty(), PROJECT_WIDE, true)).isEqualTo(PRIVATE);
    MemoryLocation location =
        MemoryLocation.resolve(
            new Environment(
                Map.of("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "/m/memory"),
                Path.of("/h"),
                Path.of("/w")));
    assertThat(MemoryScope.of(Path.of("/m/memory/team/a.md"), location)).isEqualTo(TEAM);
    assertThat(MemoryScope.of(Path.of("/m/memory/a.md"), location)).isEqualTo(PRIVATE);
    assertThat(MemoryScope.of(Path.of("/m/memory/team/../a.md"), location)).isEqualTo(PRIVATE);
    assertThat(TEAM.directory(location)).isEqualTo(Path.of("/m/memory/team"));
    assertThat(PERSONAL).isNotEqualTo(UNSTATED);
  }
}
