package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;

/**
 * Something the user said that is worth a memory.
 *
 * @param lead the statement that makes it a memory, without the words that opened it ("No,", "Heads
 *     up:"); the memory's name and description come from it
 * @param text everything the user said about it, verbatim
 * @param why how it came up, for the memory's **Why:** line
 */
record Candidate(
    Kind kind,
    MemoryType type,
    MemoryScope.Audience audience,
    String lead,
    String text,
    String why) {

  enum Kind {
    /** The user asked for it to be remembered. */
    REMEMBER,
    /** The user corrected what the agent had just done. */
    CORRECTION,
    /** The user stated how to work from now on. */
    RULE,
    /** The user gave context: a fact, a decision, where information lives. */
    STATEMENT,
    /** The user said who they are. */
    ABOUT_THE_USER
  }

  Candidate {
    requireNonNull(kind, "kind is null");
    requireNonNull(type, "type is null");
    requireNonNull(audience, "audience is null");
    requireNonNull(lead, "lead is null");
    requireNonNull(text, "text is null");
    requireNonNull(why, "why is null");
  }
}
