package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncStateStoreTest {

  @TempDir Path stateDir;

  private final SyncTarget target =
      new SyncTarget(
          "http://127.0.0.1:1", "acme/widgets", Path.of("/tmp/team"), Path.of("/tmp/state"));

  @Test
  void aSavedStateReadsBackTheSame() {
    SyncStateStore store = new SyncStateStore(stateDir);
    SyncState state =
        new SyncState(
            target.serverUrl(),
            "acme/widgets",
            "/tmp/team",
            "sha256:2393b496b31a8d584745ed4fc85957f4c3055a36169db110deefeccc43b46cba",
            Map.of("a.md", "sha256:1"),
            Map.of("a.md", "sha256:1"),
            2000,
            List.of("b.md"),
            Map.of("c.md", new SyncState.Skip(SkipReason.SECRET, "rule github-pat", "sha256:2")),
            List.of(
                new SyncState.ConflictRecord(
                    "a.md", "sha256:3", "sha256:1", 7, "bob", "2026-11-21T10:15:30.123Z", null)),
            Map.of(
                "d.md",
                new SyncState.KeptDeletion("sha256:4", "sha256:5", "2026-11-21T10:15:30.123Z")),
            Map.of("../x", "key has an empty, '.' or '..' path segment"),
            "2026-11-21T10:15:30.123Z",
            null,
            "cannot reach the server",
            "2026-11-21T10:15:31.000Z",
            null,
            Map.of("e.md", "2026-11-21T10:15:30.123Z"),
            new SyncState.DeleteHold(
                "the team folder is empty", List.of("e.md"), "2026-11-21T10:15:30.123Z", true),
            new SyncState.StoreSync("/v1/memory_stores/memstore_01", 12, Map.of("a.md", "mem_a")),
            null);

    store.save(state);

    assertThat(store.load(target)).isEqualTo(state);
  }

  @Test
  void anUnreadableStateIsMovedAsideAndSyncStartsAfresh() throws IOException {
    SyncStateStore store = new SyncStateStore(stateDir);
    Files.writeString(store.file(), "{ not json");

    SyncState state = store.load(target);

    assertThat(state.serverChecksums()).isEmpty();
    assertThat(stateDir.resolve("sync-state.json.unreadable")).exists();
  }

  @Test
  void theStateTheReleaseBeforePerFileSyncWroteLoadsWithItsAgreementsKept() throws IOException {
    SyncStateStore store = new SyncStateStore(stateDir);
    try (var captured = getClass().getResourceAsStream("/sync/sync-state-before-per-file.json")) {
      Files.write(store.file(), captured.readAllBytes());
    }
    SyncTarget before =
        new SyncTarget(
            "http://127.0.0.1:1", "acme/widgets", Path.of("/tmp/team"), Path.of("/tmp/state"));

    SyncState state = store.load(before);

    assertThat(state.syncedChecksums()).containsOnlyKeys("a.md", "b.md");
    assertThat(state.serverChecksums()).isEqualTo(state.syncedChecksums());
    assertThat(state.repositoryChecksum())
        .isEqualTo("sha256:2393b496b31a8d584745ed4fc85957f4c3055a36169db110deefeccc43b46cba");
    assertThat(state.skipped().get("c.md").reason()).isEqualTo(SkipReason.SECRET);
    assertThat(state.conflicts()).singleElement().extracting(c -> c.theirVersion()).isEqualTo(7L);
    assertThat(state.missingSince()).isEmpty();
    assertThat(state.heldDeletes()).isEmpty();
    assertThat(state.memoryStore()).isEmpty();
    assertThat(store.file()).exists();
  }
}
