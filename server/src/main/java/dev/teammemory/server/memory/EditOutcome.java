package dev.teammemory.server.memory;

import static java.util.Objects.requireNonNull;

/** What a person's edit, restore, delete or redaction through the console came to. */
public sealed interface EditOutcome {

  /** Written: the repository is now at {@code version}. */
  record Saved(long version) implements EditOutcome {}

  /** The memory already had this content, or was already deleted: nothing written. */
  record Unchanged() implements EditOutcome {}

  /** Someone changed the memory after the page showed it; nothing was overwritten. */
  record Changed() implements EditOutcome {}

  /** Refused for a reason a person can act on (a limit, a secret, a bad path, an archive). */
  record Refused(String reason) implements EditOutcome {
    public Refused {
      requireNonNull(reason, "reason is null");
    }
  }

  /** No such memory, or no such kept version. */
  record Missing() implements EditOutcome {}
}
