package dev.teammemory.daemon.dream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Offline consolidation's steps on a real memory folder. */
class OfflineConsolidationTest {

  @TempDir Path memory;

  private Path topic(String name, String description, String body, Duration age)
      throws IOException {
    Path file = memory.resolve(name);
    Files.writeString(
        file,
        "---\nname: "
            + name.replace(".md", "")
            + "\ndescription: "
            + description
            + "\ntype: feedback\n---\n"
            + body);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  private List<PlannedChange> consolidate() throws IOException {
    Map<Path, Path> mergedInto = new HashMap<>();
    return OfflineConsolidation.consolidate(
        OfflineConsolidation.orient(memory), Clock.systemUTC(), mergedInto);
  }

  @Test
  void aMergedDuplicateStaysWhenTheSurvivorsRewriteFails() throws IOException {
    Path survivor =
        topic(
            "feedback_bun.md",
            "bun",
            "Use bun instead of npm for installs and scripts.\n",
            Duration.ofHours(1));
    Path older =
        topic(
            "feedback_bun_again.md",
            "bun again",
            "Use bun instead of npm for installs and scripts.\nAlso for CI jobs and scripts.\n",
            Duration.ofHours(2));
    List<PlannedChange> changes = consolidate();
    assertThat(changes)
        .extracting(PlannedChange::action)
        .containsExactly(PlannedChange.Action.REWRITE, PlannedChange.Action.DELETE);
    // The survivor's rewrite cannot happen: a folder that is not empty now stands in its place.
    Files.delete(survivor);
    Files.createDirectories(survivor.resolve("inside"));

    assertThatThrownBy(() -> OfflineConsolidation.apply(changes)).isInstanceOf(IOException.class);

    assertThat(Files.readString(older)).contains("Also for CI jobs and scripts.");
  }

  @Test
  void applyRewritesBeforeItDeletesWhateverTheOrderGiven() throws IOException {
    Path survivor = memory.resolve("survivor.md");
    Files.createDirectories(survivor.resolve("inside"));
    Path duplicate = Files.writeString(memory.resolve("duplicate.md"), "a line only here\n");
    List<PlannedChange> changes =
        List.of(
            PlannedChange.delete(duplicate, "merged"),
            PlannedChange.rewrite(survivor, "merged", "a line only here\n"));

    assertThatThrownBy(() -> OfflineConsolidation.apply(changes)).isInstanceOf(IOException.class);

    assertThat(duplicate).hasContent("a line only here");
  }

  @Test
  void memoriesWithoutABodyAreNotDuplicatesOfEachOther() throws IOException {
    topic("feedback_tabs.md", "indent with tabs in Go files", "", Duration.ofHours(1));
    topic("feedback_review.md", "ask for review before merging", "\n", Duration.ofHours(2));
    topic("feedback_dash.md", "never force-push main", "---\n", Duration.ofHours(3));

    assertThat(consolidate()).isEmpty();
  }

  private java.util.Optional<PlannedChange> index() throws IOException {
    return OfflineConsolidation.index(memory, OfflineConsolidation.orient(memory), Map.of());
  }

  @Test
  void aLinkToAWebPageIsNotAPointerToAMissingFile() throws IOException {
    topic("feedback_bun.md", "use bun", "Use bun.\n", Duration.ofHours(1));
    String index =
        "- [Bun](feedback_bun.md) — use bun\n"
            + "- [API docs](https://example.com/docs/api.md) — the upstream API\n";
    Files.writeString(memory.resolve("MEMORY.md"), index);

    assertThat(index()).isEmpty();
  }

  @Test
  void aPointerToAFileWithSpacesAndParenthesesIsReadBackAndNotAddedAgain() throws IOException {
    topic("my notes (draft).md", "draft notes", "Drafts go in the wiki.\n", Duration.ofHours(1));

    PlannedChange first = index().orElseThrow();
    assertThat(first.content())
        .contains("- [my notes (draft)](my%20notes%20%28draft%29.md) — draft notes\n");
    OfflineConsolidation.apply(List.of(first));

    assertThat(index()).isEmpty();
  }

  @Test
  void aMemoryThatStartsWithAByteOrderMarkKeepsItsFrontmatterOutOfTheBody() throws IOException {
    String body = "Use bun instead of npm for installs and scripts.\n";
    Path survivor = topic("feedback_bun.md", "bun", body, Duration.ofHours(1));
    Path older = memory.resolve("feedback_bun_copy.md");
    Files.writeString(
        older,
        "\uFEFF---\nname: feedback_bun_copy\ndescription: bun, again\ntype: feedback\n---\n"
            + body);
    Files.setLastModifiedTime(older, FileTime.from(Instant.now().minus(Duration.ofHours(2))));

    assertThat(consolidate())
        .containsExactly(PlannedChange.delete(older, "exact duplicate of feedback_bun.md"));
    assertThat(survivor).content().endsWith(body);
  }

  @Test
  void aLineOfDashesInABodyIsARuleNotTheEndOfFrontmatter() throws IOException {
    // No frontmatter: the file opens with a Markdown rule, and a longer rule follows.
    Path notes = memory.resolve("deploy_notes.md");
    Files.writeString(notes, "---\nDeployed yesterday.\n----------\nRolled back today.\n");
    Files.setLastModifiedTime(notes, FileTime.from(Instant.parse("2026-03-10T12:00:00Z")));

    assertThat(consolidate())
        .containsExactly(
            PlannedChange.rewrite(
                notes,
                "relative dates made absolute",
                "---\nDeployed 2026-03-09.\n----------\nRolled back 2026-03-10.\n"));
  }
}
