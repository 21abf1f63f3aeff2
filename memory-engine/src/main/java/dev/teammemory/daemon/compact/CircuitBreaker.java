package dev.teammemory.daemon.compact;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.StateFiles;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Stops automatic compaction of a session after {@value #MAX_CONSECUTIVE_FAILURES} failures in a
 * row, so that a conversation that cannot be compacted does not burn a model call on every turn. A
 * success closes it again. The count lives in the daemon's state directory ({@code
 * <state>/compact/}), one file per transcript, because every hook call is a new process.
 */
final class CircuitBreaker {

  static final int MAX_CONSECUTIVE_FAILURES = 3;

  private final Path directory;

  CircuitBreaker(Path stateHome) {
    this.directory = requireNonNull(stateHome, "stateHome is null").resolve("compact");
  }

  int consecutiveFailures(Path transcript) {
    // A torn counter only forgets failures; the breaker trips again if they continue.
    return StateFiles.readObject(file(transcript))
        .map(root -> Math.max(0, root.path("consecutiveFailures").asInt(0)))
        .orElse(0);
  }

  boolean open(Path transcript) {
    return consecutiveFailures(transcript) >= MAX_CONSECUTIVE_FAILURES;
  }

  int recordFailure(Path transcript) throws IOException {
    int failures = consecutiveFailures(transcript) + 1;
    save(transcript, failures);
    return failures;
  }

  void recordSuccess(Path transcript) throws IOException {
    if (consecutiveFailures(transcript) != 0) {
      save(transcript, 0);
    }
  }

  private void save(Path transcript, int failures) throws IOException {
    Files.createDirectories(directory);
    String body =
        TranscriptLines.JSON
            .createObjectNode()
            .put("transcript", transcript.toString())
            .put("consecutiveFailures", failures)
            .toString();
    AtomicFiles.write(file(transcript), body);
  }

  private Path file(Path transcript) {
    return directory.resolve(
        ClaudeLayout.sanitize(transcript.toAbsolutePath().normalize().toString()) + ".json");
  }
}
