package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.MemoryLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeamFolderHomeTest {

  @TempDir Path home;

  private Environment environment;
  private Path checkout;
  private Path state;

  @BeforeEach
  void aCheckout() throws IOException {
    checkout = Files.createDirectories(home.resolve("shop")).toRealPath();
    state = home.resolve("state");
    environment =
        new Environment(
            Map.of(
                "CLAUDE_CONFIG_DIR", home.resolve(".claude").toString(),
                "XDG_STATE_HOME", state.toString()),
            home,
            checkout);
  }

  private Path claudeMemory() {
    return home.resolve(".claude/projects")
        .resolve(checkout.toString().replaceAll("[^A-Za-z0-9]", "-"))
        .resolve("memory");
  }

  @Test
  void withoutClaudeCodesFolderTheTeamFolderIsTmemsOwn() {
    assertThat(TeamFolderHome.choose(environment, checkout).toString())
        .startsWith(state.resolve("tmem/memory").toString())
        .endsWith("/team");
  }

  @Test
  void whereClaudeCodesFolderExistsItsTeamFolderIsUsed() throws IOException {
    Files.createDirectories(claudeMemory());

    assertThat(TeamFolderHome.choose(environment, checkout))
        .isEqualTo(claudeMemory().resolve("team"));
  }

  @Test
  void whenClaudeCodesFolderAppearsTheMemoryMovesWithTheRecordAndNothingIsOverwritten()
      throws IOException {
    Path own = TeamFolderHome.choose(environment, checkout);
    new ProjectRegistry(state.resolve("tmem"))
        .add(new Project("acme/shop", own, Optional.of(checkout)));
    Files.createDirectories(own);
    Files.writeString(own.resolve("release.md"), "from codex\n");
    Files.writeString(own.resolve("MEMORY.md"), "- [release](release.md)\n");
    Files.writeString(own.getParent().resolve("MEMORY.md"), "private index\n");
    assertThat(TeamFolderHome.settle(environment, checkout).orElseThrow().moved()).isFalse();
    assertThat(MemoryLocation.resolve(environment).directory()).isEqualTo(own.getParent());

    Files.createDirectories(claudeMemory().resolve("team"));
    Files.writeString(claudeMemory().resolve("team/MEMORY.md"), "claude's own index\n");
    TeamFolderHome.Settled settled = TeamFolderHome.settle(environment, checkout).orElseThrow();

    assertThat(settled.moved()).isTrue();
    assertThat(settled.teamDir()).isEqualTo(claudeMemory().resolve("team"));
    assertThat(claudeMemory().resolve("team/release.md")).hasContent("from codex");
    assertThat(claudeMemory().resolve("team/MEMORY.md")).hasContent("claude's own index");
    assertThat(claudeMemory().resolve("team/MEMORY.from-tmem.md"))
        .hasContent("- [release](release.md)");
    assertThat(claudeMemory().resolve("MEMORY.md")).hasContent("private index");
    assertThat(new ProjectRegistry(state.resolve("tmem")).projects())
        .extracting(Project::teamDir)
        .containsExactly(claudeMemory().resolve("team"));
    assertThat(MemoryLocation.resolve(environment).directory()).isEqualTo(claudeMemory());
  }
}
