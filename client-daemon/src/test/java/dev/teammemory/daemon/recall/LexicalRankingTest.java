package dev.teammemory.daemon.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.memory.MemoryType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Offline recall against a hand-made set: twenty memories and a person's picks for nineteen queries
 * ({@code recall/judgments.tsv}). Every required memory must be picked, the first pick must be a
 * required one, and nothing outside required and acceptable may be picked.
 */
class LexicalRankingTest {

  static Path resource(String name) {
    try {
      return Path.of(LexicalRankingTest.class.getResource("/recall/" + name).toURI());
    } catch (URISyntaxException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  static List<MemoryHeader> memories() {
    try {
      return MemoryScan.scan(resource("memories"));
    } catch (IOException unreadable) {
      throw new UncheckedIOException(unreadable);
    }
  }

  static Stream<Arguments> judgments() throws IOException {
    List<Arguments> judgments = new ArrayList<>();
    for (String line : Files.readAllLines(resource("judgments.tsv"), StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] columns = Arrays.copyOf(line.split("\t", -1), 4);
      judgments.add(Arguments.of(columns[0], list(columns[1]), list(columns[2]), list(columns[3])));
    }
    return judgments.stream();
  }

  private static List<String> list(String column) {
    return column == null || column.isBlank()
        ? List.of()
        : Arrays.stream(column.split(",")).map(String::strip).toList();
  }

  @ParameterizedTest(name = "{0} [{1}]")
  @MethodSource("judgments")
  void picksWhatAPersonWouldPick(
      String query, List<String> tools, List<String> required, List<String> acceptable) {
    List<String> picks =
        LexicalRanking.rank(query, memories(), tools, Recall.MAX_MEMORIES).stream()
            .map(MemoryHeader::filename)
            .toList();

    assertThat(picks).as("picks for %s", query).containsAll(required);
    Set<String> allowed = new HashSet<>(required);
    allowed.addAll(acceptable);
    assertThat(allowed).as("picks for %s", query).containsAll(picks);
    if (!required.isEmpty()) {
      assertThat(required).as("first pick for %s", query).contains(picks.getFirst());
    }
  }

  @Test
  void usageNotesForAToolInUseAreSkippedButWarningsAreKept() {
    MemoryHeader usage =
        header(
            "reference_gh.md",
            "gh usage",
            "How to list pull requests with the Bash tool and gh",
            MemoryType.REFERENCE);
    MemoryHeader warning =
        header(
            "reference_gh_warn.md",
            "gh gotcha",
            "Bash: gh pr list silently stops at 30 pull requests",
            MemoryType.REFERENCE);
    MemoryHeader feedback =
        header(
            "feedback_gh.md",
            "gh preference",
            "List pull requests with Bash gh rather than the web UI",
            MemoryType.FEEDBACK);

    List<MemoryHeader> withoutTools =
        LexicalRanking.rank(
            "list pull requests with gh", List.of(usage, warning, feedback), List.of(), 5);
    List<MemoryHeader> withBash =
        LexicalRanking.rank(
            "list pull requests with gh", List.of(usage, warning, feedback), List.of("Bash"), 5);

    assertThat(withoutTools).contains(usage, warning, feedback);
    assertThat(withBash).containsExactlyInAnyOrder(warning, feedback);
  }

  @Test
  void termsAreLowerCasedSplitStemmedAndStripped() {
    assertThat(LexicalRanking.terms("Running the FlakyTests in myCheckoutService.ts for k8s DBs"))
        .containsExactly(
            "run", "flaky", "test", "checkout", "service", "typescript", "kubernete", "database");
    assertThat(LexicalRanking.terms("kubernetes")).isEqualTo(LexicalRanking.terms("k8s"));
    assertThat(LexicalRanking.terms("e2e tests")).containsExactly("e2e", "test");
    assertThat(LexicalRanking.stem("libraries")).isEqualTo("library");
    assertThat(LexicalRanking.stem("string")).isEqualTo("string");
    assertThat(LexicalRanking.stem("mocked")).isEqualTo("mock");
    assertThat(LexicalRanking.stem("speed")).isEqualTo("speed");
  }

  @Test
  void aQueryOfOnlyStopWordsPicksNothing() {
    assertThat(LexicalRanking.rank("what is this and how do I do it", memories(), List.of(), 5))
        .isEmpty();
  }

  private static MemoryHeader header(
      String filename, String name, String description, MemoryType type) {
    return new MemoryHeader(
        filename,
        Path.of("/m/" + filename),
        Instant.EPOCH,
        Optional.of(name),
        Optional.of(description),
        Optional.of(type));
  }
}
