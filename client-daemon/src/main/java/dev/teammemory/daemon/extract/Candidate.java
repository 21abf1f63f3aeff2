package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;

/**
 * Something the user said that is worth a memory.
 *
 * @param rule the memory itself, as one instruction or fact
 * @param why how it came up, for the memory's **Why:** line
 */
record Candidate(
    Kind kind, MemoryType type, MemoryScope.Audience audience, String rule, String why) {

  enum Kind {
    /** The user asked for it to be remembered. */
    REMEMBER,
    /** The user corrected the agent. */
    CORRECTION,
    /** The user stated how they like things done. */
    PREFERENCE
  }

  Candidate {
    requireNonNull(kind, "kind is null");
    requireNonNull(type, "type is null");
    requireNonNull(audience, "audience is null");
    requireNonNull(rule, "rule is null");
    requireNonNull(why, "why is null");
  }
}
