package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.memory.MemoryLocation;
import java.nio.file.Path;

/**
 * One request to extract memories from a session after a turn.
 *
 * @param location where memory lives for the session's project, and whether it is on
 * @param dailyLog whether daily-log mode is on: memories go to today's log, never to topic files
 * @param workingDirectory the agent's directory, where relative paths in its tool calls start
 */
public record ExtractionRequest(
    Path transcript, MemoryLocation location, boolean dailyLog, Path workingDirectory) {

  public ExtractionRequest {
    requireNonNull(transcript, "transcript is null");
    requireNonNull(location, "location is null");
    requireNonNull(workingDirectory, "workingDirectory is null");
    transcript = transcript.toAbsolutePath().normalize();
  }
}
