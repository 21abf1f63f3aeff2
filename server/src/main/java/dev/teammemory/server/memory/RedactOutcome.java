package dev.teammemory.server.memory;

/** What redacting one memory version came to. */
public sealed interface RedactOutcome {

  /** The version's content is erased for good (or already was). */
  record Redacted(long versionRowId) implements RedactOutcome {}

  /** No such version in the store. */
  record NotFound() implements RedactOutcome {}

  /** The version holds its memory's current content, which a redaction would contradict. */
  record CurrentVersion() implements RedactOutcome {}
}
