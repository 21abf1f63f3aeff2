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
 */
public record CompactionRequest(
    Path transcript,
    Optional<Path> notes,
    Optional<String> lastSummarized,
    CompactionLimits limits,
    boolean automatic) {

  public CompactionRequest {
    requireNonNull(transcript, "transcript is null");
    requireNonNull(notes, "notes is null");
    requireNonNull(lastSummarized, "lastSummarized is null");
    requireNonNull(limits, "limits is null");
    transcript = transcript.toAbsolutePath().normalize();
    notes = notes.map(path -> path.toAbsolutePath().normalize());
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
