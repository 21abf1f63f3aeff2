package dev.teammemory.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.sync.SavedProjects;
import dev.teammemory.daemon.sync.SkipReason;
import dev.teammemory.daemon.sync.SyncState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusCommandTest {

  @TempDir Path temporary;

  @Test
  void textNamesPendingSkippedConflictsAndTheLastErrorInWords() throws IOException {
    Path team = Files.createDirectories(temporary.resolve("team"));
    Files.writeString(team.resolve("new.md"), "not pushed yet");
    SyncState state =
        new SyncState(
            "https://tm.example.com",
            "acme/widgets",
            team.toString(),
            null,
            Map.of(),
            Map.of(),
            0,
            List.of(),
            Map.of(
                "aws.md",
                    new SyncState.Skip(SkipReason.SECRET, "rule aws-access-token", "sha256:x"),
                "big.md",
                    new SyncState.Skip(
                        SkipReason.TOO_LARGE, "312,455 bytes; the limit is 250,000", null),
                "link.md", new SyncState.Skip(SkipReason.SYMLINK, "", null),
                "n2001.md",
                    new SyncState.Skip(
                        SkipReason.OVER_CAP, "the server holds at most 2,000 entries", "sha256:y")),
            List.of(
                new SyncState.ConflictRecord(
                    "decisions.md",
                    "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                    "sha256:b",
                    7,
                    "bob",
                    "2026-11-21T10:15:30.123Z",
                    null)),
            Map.of(),
            Map.of("../x", "key has an empty, '.' or '..' path segment"),
            "2026-11-21T10:15:30.123Z",
            "2026-11-21T10:15:32.000Z",
            "cannot reach https://tm.example.com to push: connection refused (retrying, 1 change(s) pending)",
            "2026-11-21T10:20:00.000Z",
            null,
            Map.of(
                "gone.md", "2026-11-21T10:19:00.000Z",
                "a.md", "2026-11-21T10:19:30.000Z",
                "b.md", "2026-11-21T10:19:30.000Z"),
            new SyncState.DeleteHold(
                "the team folder is empty",
                List.of("a.md", "b.md"),
                "2026-11-21T10:19:30.000Z",
                false),
            new SyncState.StoreSync("/v1/memory_stores/memstore_01", 12, Map.of("a.md", "mem_a")),
            null);

    String text =
        StatusCommand.text(
            StatusCommand.statusOf(new SavedProjects.Saved(temporary.resolve("state"), state)));

    assertThat(text)
        .isEqualTo(
            "acme/widgets  "
                + team
                + "\n"
                + "  server:     https://tm.example.com\n"
                + "  store:      /v1/memory_stores/memstore_01\n"
                + "  console:    https://tm.example.com/console/repos/acme/widgets\n"
                + "  daemon:     not running\n"
                + "  last pull:  2026-11-21T10:15:30.123Z\n"
                + "  last push:  2026-11-21T10:15:32.000Z\n"
                + "  pending:    1 change(s): new.md\n"
                + "  not synced: aws.md — contains a secret (rule aws-access-token)\n"
                + "  not synced: big.md — too large (312,455 bytes; the limit is 250,000)\n"
                + "  not synced: link.md — a symbolic link (links are never synced)\n"
                + "  not synced: n2001.md — over the server's entry cap (the server holds at most 2,000 entries)\n"
                + "  conflict:   decisions.md changed here and on the server (2026-11-21T10:15:30.123Z); your edit"
                + " replaced bob's version 7, which stays in the server's history; to get theirs back:"
                + " tmem team restore decisions.md --version 7 --repo acme/widgets\n"
                + "  refused:    the server's key ../x — key has an empty, '.' or '..' path segment\n"
                + "  deleting:   gone.md — missing here since 2026-11-21T10:19:00.000Z; deleted on the"
                + " server if still missing at the next scan\n"
                + "  held:       2 delete(s) since 2026-11-21T10:19:30.000Z — the team folder is empty:"
                + " a.md, b.md; put the files back, or run `tmem team confirm-deletes` to delete them"
                + " on the server\n"
                + "  last error: cannot reach https://tm.example.com to push: connection refused (retrying, 1"
                + " change(s) pending) (2026-11-21T10:20:00.000Z)\n");
  }

  @Test
  void textListsTheChangesWaitingForReviewAndTheRejectedOnesWithTheCommentOnOneLine()
      throws IOException {
    Path team = Files.createDirectories(temporary.resolve("team"));
    Path stateDir = Files.createDirectories(temporary.resolve("state"));
    Files.writeString(
        stateDir.resolve("reviews.json"),
        """
        {"checked_at": "sha256:x",
         "waiting": [{"id": "rev_1", "key": "deploys.md", "author": "alice",
                      "operation": "content", "version": 9,
                      "created_at": "2026-11-28T10:00:00.000Z", "status": "pending"}],
         "rejected": [{"id": "rev_0", "key": "old.md", "author": "alice", "operation": "delete",
                       "version": 7, "created_at": "2026-11-27T09:00:00.000Z",
                       "status": "rejected", "reviewer": "rita",
                       "comment": "Keep it.\\nWe still use it.\\u001b[2J",
                       "decided_at": "2026-11-27T11:00:00.000Z"}]}
        """);
    SyncState state = SyncState.initial("https://tm.example.com", "acme/widgets", team.toString());

    String text =
        StatusCommand.text(StatusCommand.statusOf(new SavedProjects.Saved(stateDir, state)));

    assertThat(text)
        .contains(
            "  in review:  deploys.md — the change by alice of 2026-11-28T10:00:00.000Z waits for a"
                + " reviewer; teammates get it once approved\n")
        .contains(
            "  rejected:   old.md — the delete of 2026-11-27T09:00:00.000Z was rejected by rita on"
                + " 2026-11-27T11:00:00.000Z: \u201cKeep it. We still use it. [2J\u201d; the approved"
                + " version came back, and `tmem team restore` lists the copy kept of yours\n")
        .doesNotContain("\u001b");
  }
}
