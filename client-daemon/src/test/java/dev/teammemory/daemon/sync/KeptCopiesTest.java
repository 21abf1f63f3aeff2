package dev.teammemory.daemon.sync;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeptCopiesTest {

  @TempDir Path state;

  @Test
  void theSameBytesOfAKeyAreKeptOnceAndEachSyncHasItsFolder() throws IOException {
    KeptCopies kept = new KeptCopies(state.resolve("replaced"), KeptCopies.Limits.defaults());

    Path first = kept.keep("a/notes.md", "one\n".getBytes(UTF_8), "2026-11-28T10:00:00Z");
    Path again = kept.keep("a/notes.md", "one\n".getBytes(UTF_8), "2026-11-28T10:05:00Z");
    Path other = kept.keep("a/notes.md", "two\n".getBytes(UTF_8), "2026-11-28T10:05:00Z");
    kept.keep("b.md", "one\n".getBytes(UTF_8), "2026-11-28T10:05:00Z");

    assertThat(again).isEqualTo(first);
    assertThat(first).isEqualTo(state.resolve("replaced/2026-11-28T10-00-00Z/a/notes.md"));
    assertThat(other).hasContent("two\n");
    assertThat(kept.list())
        .extracting(KeptCopies.Kept::when, KeptCopies.Kept::key)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("2026-11-28T10-00-00Z", "a/notes.md"),
            org.assertj.core.groups.Tuple.tuple("2026-11-28T10-05-00Z", "a/notes.md"),
            org.assertj.core.groups.Tuple.tuple("2026-11-28T10-05-00Z", "b.md"));
  }

  @Test
  void copiesOlderThanTheDaysOrBeyondTheBytesArePrunedOldestFirst() throws IOException {
    KeptCopies kept =
        new KeptCopies(state.resolve("replaced"), new KeptCopies.Limits(Duration.ofDays(2), 10));
    Path old = kept.keep("old.md", "old\n".getBytes(UTF_8), "2026-11-01T10:00:00Z");
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(3))));
    Path middle = kept.keep("middle.md", "1234\n".getBytes(UTF_8), "2026-11-28T10:00:00Z");
    Files.setLastModifiedTime(middle, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

    Path newest = kept.keep("newest.md", "123456\n".getBytes(UTF_8), "2026-11-28T11:00:00Z");

    assertThat(old).doesNotExist();
    assertThat(old.getParent()).doesNotExist();
    assertThat(middle).doesNotExist();
    assertThat(newest).hasContent("123456\n");
    assertThat(kept.list()).extracting(KeptCopies.Kept::key).containsExactly("newest.md");
  }

  @Test
  void aKeyThatClimbsOutIsNotKeptAndTheLimitsComeFromTheEnvironment() {
    KeptCopies kept = new KeptCopies(state.resolve("replaced"), KeptCopies.Limits.defaults());

    assertThatThrownBy(() -> kept.keep("../../x", new byte[] {1}, "2026-11-28T10:00:00Z"))
        .isInstanceOf(IOException.class);
    assertThat(
            KeptCopies.Limits.fromEnvironment(Map.of("TMEM_KEEP_DAYS", "7", "TMEM_KEEP_MB", "5")))
        .isEqualTo(new KeptCopies.Limits(Duration.ofDays(7), 5L * 1024 * 1024));
    assertThat(
            KeptCopies.Limits.fromEnvironment(
                Map.of("TMEM_KEEP_DAYS", "-1", "TMEM_KEEP_MB", "lots")))
        .isEqualTo(KeptCopies.Limits.defaults());
  }
}
