package dev.teammemory.daemon.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryIndexTest {

  private static final Path FILE = Path.of("/m/MEMORY.md");
  private static final String ADVICE =
      ". Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.";

  private static String lines(int count, int width) {
    return IntStream.rangeClosed(1, count)
        .mapToObj(
            i -> {
              String prefix = "- [Entry " + i + "](entry_" + i + ".md) — ";
              return prefix + "x".repeat(Math.max(0, width - prefix.length()));
            })
        .collect(Collectors.joining("\n"));
  }

  @Test
  void aSmallIndexIsGivenTrimmedAndWhole() {
    MemoryIndex index = MemoryIndex.of(FILE, "\n\n- [A](a.md) — first\n- [B](b.md) — second\n\n");

    assertThat(index.content()).isEqualTo("- [A](a.md) — first\n- [B](b.md) — second");
    assertThat(index.truncated()).isFalse();
    assertThat(index.lineCount()).isEqualTo(2);
  }

  @Test
  void moreThanTwoHundredLinesAreCutAndTheWarningSaysLines() {
    MemoryIndex index = MemoryIndex.of(FILE, lines(230, 40));

    assertThat(index.truncatedByLines()).isTrue();
    assertThat(index.truncatedByCharacters()).isFalse();
    assertThat(index.content())
        .isEqualTo(lines(200, 40) + "\n\n> WARNING: MEMORY.md is 230 lines (limit: 200)" + ADVICE);
  }

  @Test
  void longLinesAreCutAtALineBoundaryAndTheWarningSaysSize() {
    String raw = lines(100, 300);

    MemoryIndex index = MemoryIndex.of(FILE, raw);

    assertThat(index.truncatedByLines()).isFalse();
    assertThat(index.truncatedByCharacters()).isTrue();
    String kept = index.content().substring(0, index.content().indexOf("\n\n> WARNING"));
    assertThat(kept.length()).isLessThanOrEqualTo(MemoryIndex.MAX_CHARACTERS);
    assertThat(raw).startsWith(kept + "\n");
    assertThat(kept.split("\n")).hasSize(83);
    assertThat(index.content())
        .endsWith(
            "\n\n> WARNING: MEMORY.md is 29.4KB (limit: 24.4KB) — index entries are too long"
                + ADVICE);
  }

  @Test
  void whenBothLimitsAreHitTheWarningNamesBoth() {
    MemoryIndex index = MemoryIndex.of(FILE, lines(300, 120));

    assertThat(index.truncatedByLines()).isTrue();
    assertThat(index.truncatedByCharacters()).isTrue();
    assertThat(index.content()).endsWith("> WARNING: MEMORY.md is 300 lines and 35.4KB" + ADVICE);
    assertThat(index.content().substring(0, index.content().indexOf("\n\n> WARNING")).length())
        .isLessThanOrEqualTo(25_000);
  }

  @Test
  void fileSizesAreFormattedAsTheReferenceFormatsThem() {
    assertThat(MemoryIndex.fileSize(999)).isEqualTo("999 bytes");
    assertThat(MemoryIndex.fileSize(1024)).isEqualTo("1KB");
    assertThat(MemoryIndex.fileSize(25_000)).isEqualTo("24.4KB");
    assertThat(MemoryIndex.fileSize(3 * 1024 * 1024)).isEqualTo("3MB");
  }

  @Test
  void aMissingOrBlankIndexIsEmpty(@TempDir Path directory) throws IOException {
    assertThat(MemoryIndex.load(directory.resolve("MEMORY.md"))).isEmpty();
    assertThat(MemoryIndex.load(Files.writeString(directory.resolve("MEMORY.md"), " \n\n")))
        .isEmpty();
  }
}
