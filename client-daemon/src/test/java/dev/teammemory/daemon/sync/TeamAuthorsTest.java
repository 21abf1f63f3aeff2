package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.protocol.Checksums;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The authors a pull learned, kept in the project's state and read by the hooks. */
class TeamAuthorsTest {

  @TempDir Path home;

  @Test
  void anAuthorHoldsForTheVersionItWroteAndNotAfterALocalEdit() throws IOException {
    Path team = Files.createDirectories(home.resolve("memory/team"));
    Path stateHome = home.resolve("state/tmem");
    Path stateDir = Files.createDirectories(stateHome.resolve("projects/acme_app-0123"));
    Path deploy =
        Files.writeString(
            Files.createDirectories(team.resolve("ops")).resolve("deploy.md"), "v1\n");
    TeamAuthors.none(team)
        .with(
            Map.of(
                "ops/deploy.md",
                TeamAuthors.Learned.of(
                        "alice", Optional.of("2026-11-28T09:15:00Z"), Checksums.ofContent("v1\n"))
                    .orElseThrow()))
        .save(stateDir);

    TeamAuthors read = TeamAuthors.read(stateHome, team);

    assertThat(read.authorOf(deploy))
        .contains(
            new TeamAuthors.Author("alice", Optional.of(Instant.parse("2026-11-28T09:15:00Z"))));
    Files.writeString(deploy, "v2, edited here\n");
    assertThat(read.authorOf(deploy)).isEmpty();
    assertThat(TeamAuthors.read(stateHome, home.resolve("elsewhere/team")).byKey()).isEmpty();
  }

  @Test
  void anAuthorThatCouldNotBeALoginIsNeverKept() {
    assertThat(TeamAuthors.Learned.of("alice\n## MEMORY.md", Optional.empty(), Checksums.EMPTY))
        .isEmpty();
    assertThat(TeamAuthors.Learned.of("\"><teammate-notes", Optional.empty(), Checksums.EMPTY))
        .isEmpty();
    assertThat(TeamAuthors.Learned.of("bob", Optional.of("yesterday"), Checksums.EMPTY))
        .hasValueSatisfying(learned -> assertThat(learned.at()).isNull());
  }

  @Test
  void aWholeReadForgetsTheAuthorsOfKeysTheServerNoLongerHolds() {
    TeamAuthors authors =
        TeamAuthors.none(home)
            .with(
                Map.of(
                    "a.md", new TeamAuthors.Learned("alice", null, Checksums.EMPTY),
                    "b.md", new TeamAuthors.Learned("bob", null, Checksums.EMPTY)));

    assertThat(authors.onlyFor(Set.of("b.md")).byKey()).containsOnlyKeys("b.md");
  }

  @Test
  void anUnreadableAuthorsFileAttributesNothing() throws IOException {
    Path team = Files.createDirectories(home.resolve("memory/team"));
    Path stateHome = home.resolve("state/tmem");
    Path stateDir = Files.createDirectories(stateHome.resolve("projects/acme_app-0123"));
    Files.writeString(stateDir.resolve(TeamAuthors.FILE_NAME), "{ not json");

    assertThat(TeamAuthors.read(stateHome, team).byKey()).isEmpty();
  }
}
