package dev.teammemory.daemon.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryScanTest {

  @TempDir Path memory;

  private Path topic(String name, String content, Instant modified) throws IOException {
    Path file = memory.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    Files.setLastModifiedTime(file, FileTime.from(modified));
    return file;
  }

  private static String frontmatter(String name, String description, String type) {
    return "---\nname: "
        + name
        + "\ndescription: "
        + description
        + "\ntype: "
        + type
        + "\n---\nbody\n";
  }

  @Test
  void listsTopicFilesNewestFirstWithTheirFrontmatter() throws IOException {
    topic(
        "old.md",
        frontmatter("old", "An old one", "project"),
        Instant.parse("2025-01-01T00:00:00Z"));
    topic(
        "new.md",
        frontmatter("new", "A new one", "user"),
        Instant.parse("2025-03-01T10:20:30.456Z"));
    topic(
        "team/shared.md",
        frontmatter("shared", "Shared with the team", "reference"),
        Instant.parse("2025-02-01T00:00:00Z"));

    List<MemoryHeader> headers = MemoryScan.scan(memory);

    assertThat(headers)
        .extracting(MemoryHeader::filename)
        .containsExactly("new.md", "team/shared.md", "old.md");
    MemoryHeader newest = headers.getFirst();
    assertThat(newest.name()).contains("new");
    assertThat(newest.description()).contains("A new one");
    assertThat(newest.type()).contains(MemoryType.USER);
    assertThat(newest.file()).isEqualTo(memory.resolve("new.md").toAbsolutePath());
  }

  @Test
  void leavesOutIndexesOtherFilesAndSymbolicLinks() throws IOException {
    topic("MEMORY.md", "- index", Instant.now());
    topic("team/MEMORY.md", "- team index", Instant.now());
    topic("notes.txt", "not markdown", Instant.now());
    Path real = topic("real.md", frontmatter("real", "Real", "user"), Instant.now());
    Files.createSymbolicLink(memory.resolve("link.md"), real);

    assertThat(MemoryScan.scan(memory))
        .extracting(MemoryHeader::filename)
        .containsExactly("real.md");
  }

  @Test
  void keepsTheNewestTwoHundred() throws IOException {
    Instant start = Instant.parse("2025-01-01T00:00:00Z");
    for (int i = 0; i < 205; i++) {
      topic(
          String.format("topic_%03d.md", i),
          frontmatter("t" + i, "Topic " + i, "project"),
          start.plusSeconds(i));
    }

    List<MemoryHeader> headers = MemoryScan.scan(memory);

    assertThat(headers).hasSize(200);
    assertThat(headers.getFirst().filename()).isEqualTo("topic_204.md");
    assertThat(headers.getLast().filename()).isEqualTo("topic_005.md");
  }

  @Test
  void readsOnlyTheFirstThirtyLines() throws IOException {
    topic("late.md", "\n".repeat(30) + frontmatter("late", "Too late", "user"), Instant.now());
    topic(
        "long.md",
        "---\nname: long\ndescription: Fine\n---\n" + "line\n".repeat(10_000),
        Instant.now());

    List<MemoryHeader> headers = MemoryScan.scan(memory);

    assertThat(headers)
        .filteredOn(header -> header.filename().equals("late.md"))
        .singleElement()
        .satisfies(header -> assertThat(header.description()).isEmpty());
    assertThat(headers)
        .filteredOn(header -> header.filename().equals("long.md"))
        .singleElement()
        .satisfies(header -> assertThat(header.description()).contains("Fine"));
  }

  @Test
  void anUnknownTypeStillLoadsWithoutAType() throws IOException {
    topic("odd.md", frontmatter("odd", "Odd one", "diary"), Instant.now());

    MemoryHeader header = MemoryScan.scan(memory).getFirst();

    assertThat(header.type()).isEmpty();
    assertThat(header.description()).contains("Odd one");
  }

  @Test
  void readsTheTypeInBothFormatsTopLevelFirst() throws IOException {
    Instant now = Instant.now();
    topic("top.md", frontmatter("top", "Top-level type", "user"), now);
    topic(
        "nested.md",
        "---\nname: nested-type\ndescription: The agent's format\nmetadata:\n  type: feedback\n---\n",
        now.minusSeconds(1));
    topic(
        "both.md",
        "---\nname: both\ndescription: Both\ntype: project\nmetadata:\n  type: project\n---\n",
        now.minusSeconds(2));
    topic(
        "unknown-top.md",
        "---\nname: unknown-top\ndescription: x\ntype: diary\nmetadata:\n  type: reference\n---\n",
        now.minusSeconds(3));

    List<MemoryHeader> headers = MemoryScan.scan(memory);

    assertThat(headers)
        .extracting(MemoryHeader::filename, MemoryHeader::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("top.md", Optional.of(MemoryType.USER)),
            org.assertj.core.groups.Tuple.tuple("nested.md", Optional.of(MemoryType.FEEDBACK)),
            org.assertj.core.groups.Tuple.tuple("both.md", Optional.of(MemoryType.PROJECT)),
            org.assertj.core.groups.Tuple.tuple(
                "unknown-top.md", Optional.of(MemoryType.REFERENCE)));
    assertThat(MemoryScan.manifest(headers)).contains("[feedback] nested.md");
  }

  @Test
  void aFileChangedSinceTheLastScanIsReadAgain() throws IOException {
    Instant first = Instant.parse("2026-03-01T10:00:00Z");
    topic("deploy.md", frontmatter("deploy", "Deploy on Fridays", "project"), first);
    assertThat(MemoryScan.scan(memory).getFirst().description()).contains("Deploy on Fridays");

    topic("deploy.md", frontmatter("deploy", "Never deploy on Fridays", "feedback"), first);
    MemoryHeader sameTimeOtherSize = MemoryScan.scan(memory).getFirst();
    topic(
        "deploy.md", frontmatter("deploy", "Deploy any weekday", "project"), first.plusSeconds(1));
    MemoryHeader later = MemoryScan.scan(memory).getFirst();

    assertThat(sameTimeOtherSize.description()).contains("Never deploy on Fridays");
    assertThat(sameTimeOtherSize.type()).contains(MemoryType.FEEDBACK);
    assertThat(later.description()).contains("Deploy any weekday");
  }

  @Test
  void aMissingDirectoryHasNoTopics() throws IOException {
    assertThat(MemoryScan.scan(memory.resolve("absent"))).isEmpty();
  }

  @Test
  void manifestLinesHaveTheReferencesFormat() {
    MemoryHeader full =
        new MemoryHeader(
            "team/api.md",
            Path.of("/m/team/api.md"),
            Instant.parse("2025-03-01T10:20:30Z"),
            Optional.of("api"),
            Optional.of("API auth caveats"),
            Optional.of(MemoryType.REFERENCE));
    MemoryHeader bare =
        new MemoryHeader(
            "loose.md",
            Path.of("/m/loose.md"),
            Instant.parse("2025-03-01T10:20:30.456789Z"),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());

    assertThat(MemoryScan.manifest(List.of(full, bare)))
        .isEqualTo(
            "- [reference] team/api.md (2025-03-01T10:20:30.000Z): API auth caveats\n- loose.md (2025-03-01T10:20:30.456Z)");
  }
}
