package dev.teammemory.daemon.compact;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The session notes as custom instructions for the agent's own compaction. A PreCompact hook can
 * pass nothing else to it, so the notes ride along as instructions: the summary should keep what
 * they say. Oversized sections are cut as for level 1, and notes that are still the bare template
 * give nothing.
 */
public final class CompactionInstructions {

  private CompactionInstructions() {}

  public static Optional<String> fromNotes(
      String notes, Path notesFile, Optional<String> customTemplate) {
    if (NotesForCompaction.isTemplateOnly(notes, customTemplate)) {
      return Optional.empty();
    }
    NotesForCompaction cut = NotesForCompaction.of(notes);
    return Optional.of(
        "These are the session notes kept for this conversation (at "
            + notesFile
            + "). Build the summary on them: keep their Current State, Errors & Corrections and Key"
            + " results accurate, and prefer them over re-deriving the same facts from the"
            + " messages.\n\n<session-notes>\n"
            + cut.text().strip()
            + "\n</session-notes>"
            + (cut.truncated()
                ? "\n\nSome sections were cut for length; the full notes are at " + notesFile + "."
                : ""));
  }
}
