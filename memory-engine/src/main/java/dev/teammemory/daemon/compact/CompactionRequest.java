package dev.teammemory.daemon.compact;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One request to compact a session.
 *
 * @param transcript the session's JSONL transcript
 * @param notes the session notes; empty means the session's usual notes file
 * @param lastSummarized the last message the notes cover; empty means what the daemon recorded when
 *     it last updated the notes, and when it recorded nothing, that the session was resumed
 * @param automatic whether this is the agent's automatic compaction: then nothing happens below the
 *     threshold, and the circuit breaker applies
 * @param instructions the user's own instructions for the summary; as in the reference, they need a
 *     full summary, so the session notes are not used in place of one
 */
public record CompactionRequest(
    Path transcript,
    Optional<Path> notes,
    Optional<String> lastSummarized,
    CompactionLimits limits,
    boolean automatic,
    Optional<String> instructions) {

  public CompactionRequest {
    requireNonNull(transcript, "transcript is null");
    requireNonNull(notes, "notes is null");
    requireNonNull(lastSummarized, "lastSummarized is null");
    requireNonNull(limits, "limits is null");
    instructions =
        requireNonNull(instructions, "instructions is null").filter(text -> !text.isBlank());
    transcript = transcript.toAbsolutePath().normalize();
    notes = notes.map(path -> path.toAbsolutePath().normalize());
  }

  /** A compaction without instructions of the user's own. */
  public CompactionRequest(
      Path transcript,
      Optional<Path> notes,
      Optional<String> lastSummarized,
      CompactionLimits limits,
      boolean automatic) {
    this(transcript, notes, lastSummarized, limits, automatic, Optional.empty());
  }

  /** A manual compaction with the default limits, notes and marker. */
  public static CompactionRequest of(Path transcript) {
    return new CompactionRequest(
        transcript, Optional.empty(), Optional.empty(), CompactionLimits.DEFAULTS, false);
  }

  String trigger() {
    return automatic ? "auto" : "manual";
  }
}
