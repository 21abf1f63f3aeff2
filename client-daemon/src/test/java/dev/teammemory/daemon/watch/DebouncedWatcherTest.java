package dev.teammemory.daemon.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.testing.Conditions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DebouncedWatcherTest {

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final List<Set<Path>> calls = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void aBurstOfChangesBecomesOneCallWithEveryPath() {
    DebouncedWatcher debounced =
        new DebouncedWatcher(Duration.ofMillis(300), scheduler, calls::add);
    for (int i = 0; i < 50; i++) {
      debounced.accept(
          new TreeChange(Path.of("/team/file" + (i % 5) + ".md"), TreeChange.Kind.MODIFIED));
    }
    Conditions.await("the quiet period ends", Duration.ofSeconds(10), () -> !calls.isEmpty());
    Conditions.await(
        "the timer is idle", Duration.ofSeconds(10), () -> !debounced.hasPendingChanges());
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0)).hasSize(5);
  }

  @Test
  void aChangeAfterTheCallSchedulesAnotherCall() {
    DebouncedWatcher debounced =
        new DebouncedWatcher(Duration.ofMillis(100), scheduler, calls::add);
    debounced.accept(new TreeChange(Path.of("/team/a.md"), TreeChange.Kind.MODIFIED));
    Conditions.await("the first call", Duration.ofSeconds(10), () -> calls.size() == 1);
    debounced.accept(new TreeChange(Path.of("/team/b.md"), TreeChange.Kind.CREATED));
    Conditions.await("the second call", Duration.ofSeconds(10), () -> calls.size() == 2);
    assertThat(calls.get(1)).containsExactly(Path.of("/team/b.md"));
  }

  @Test
  void cancelHandsBackWhatWasWaitingAndNoCallFollows() {
    DebouncedWatcher debounced = new DebouncedWatcher(Duration.ofHours(1), scheduler, calls::add);
    debounced.accept(new TreeChange(Path.of("/team/a.md"), TreeChange.Kind.MODIFIED));
    assertThat(debounced.hasPendingChanges()).isTrue();
    assertThat(debounced.cancel()).containsExactly(Path.of("/team/a.md"));
    assertThat(debounced.hasPendingChanges()).isFalse();
    assertThat(calls).isEmpty();
  }
}
