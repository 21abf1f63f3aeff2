package dev.teammemory.daemon.sync;

import static java.util.Objects.requireNonNull;

/** What {@code tmem sync} did for one project: the pull, the push, and the state afterwards. */
public record SyncReport(PullOutcome pull, PushOutcome push, SyncState state) {

  public SyncReport {
    requireNonNull(pull, "pull is null");
    requireNonNull(push, "push is null");
    requireNonNull(state, "state is null");
  }

  /** True when both directions went through (skipped files are reported, not failures). */
  public boolean succeeded() {
    boolean pulled = pull instanceof PullOutcome.Pulled || pull instanceof PullOutcome.Unchanged;
    boolean pushed =
        push instanceof PushOutcome.Pushed || push instanceof PushOutcome.NothingToPush;
    return pulled && pushed;
  }
}
