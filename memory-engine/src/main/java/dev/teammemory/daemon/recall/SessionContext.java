package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a session's transcript tells recall: which files the agent has read since the last
 * compaction (a memory it read is already in its context), and which compaction the conversation is
 * in. The reference counts what was surfaced from the messages themselves, so a compaction, which
 * drops them, starts that count afresh; the latest compact boundary marks the same moment.
 *
 * @param compaction the uuid of the latest compact boundary, or empty before the first one
 * @param readFiles the absolute paths the agent's Read calls named since then
 */
record SessionContext(Optional<String> compaction, Set<Path> readFiles) {

  /** What is known without a transcript: nothing, and nothing is reset. */
  static final SessionContext UNKNOWN = new SessionContext(Optional.empty(), Set.of());

  private static final String NO_COMPACTION = "";

  SessionContext {
    requireNonNull(compaction, "compaction is null");
    readFiles = Set.copyOf(readFiles);
  }

  /**
   * The context in {@code transcript}; {@link #UNKNOWN} when it cannot be read (missing, a folder,
   * a FIFO, not readable): the context only refines recall, so without it recall still answers.
   */
  static SessionContext of(Path transcript) {
    Transcript read;
    try {
      read = Transcript.read(transcript);
    } catch (IOException | UncheckedIOException unreadable) {
      return UNKNOWN;
    }
    List<TranscriptEntry> conversation = read.conversation();
    String compaction = NO_COMPACTION;
    for (TranscriptEntry entry : conversation) {
      if (entry.isCompactBoundary()) {
        compaction = entry.uuid().orElse(NO_COMPACTION);
      }
    }
    Path workingDirectory =
        read.cwd().map(Path::of).filter(Path::isAbsolute).orElse(transcript.getParent());
    Set<Path> readFiles = new LinkedHashSet<>();
    for (TranscriptEntry message : read.currentContext()) {
      for (ContentBlock.ToolUse use : message.toolUses()) {
        if (use.name().equals("Read")) {
          use.stringInput("file_path")
              .ifPresent(
                  path -> {
                    try {
                      readFiles.add(workingDirectory.resolve(path).toAbsolutePath().normalize());
                    } catch (InvalidPathException notAPath) {
                      // A malformed path names no memory.
                    }
                  });
        }
      }
    }
    return new SessionContext(Optional.of(compaction), readFiles);
  }
}
