package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectRegistryTest {

  @TempDir Path stateHome;

  @Test
  void addingTheSameTeamFolderAgainReplacesItsEntry() throws IOException {
    ProjectRegistry registry = new ProjectRegistry(stateHome);
    Project first =
        new Project(
            "acme/widgets",
            Path.of("/home/dev/.claude/projects/w/memory/team"),
            Optional.of(Path.of("/home/dev/w")));
    Project second =
        new Project(
            "acme/gadgets", Path.of("/home/dev/.claude/projects/g/memory/team"), Optional.empty());

    assertThat(registry.add(first)).isTrue();
    assertThat(registry.add(second)).isTrue();
    assertThat(registry.add(new Project("acme/widgets-renamed", first.teamDir(), first.checkout())))
        .isFalse();

    assertThat(new ProjectRegistry(stateHome).projects())
        .containsExactly(
            second, new Project("acme/widgets-renamed", first.teamDir(), first.checkout()));
  }

  @Test
  void anEmptyRegistryHasNoProjects() throws IOException {
    assertThat(new ProjectRegistry(stateHome).projects()).isEmpty();
  }
}
