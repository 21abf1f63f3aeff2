package dev.teammemory.daemon.transcript;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.TextFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An agent transcript read from Claude Code's JSONL format: one JSON object per line. Lines that
 * are not JSON objects (a torn last line after a crash, a half-written line the agent is still
 * appending) are counted and skipped; one bad line never stops the rest from being read.
 *
 * @param entries every readable line, in file order
 * @param unreadableLines line numbers that were not JSON objects
 */
public record Transcript(List<TranscriptEntry> entries, List<Integer> unreadableLines) {

  public Transcript {
    entries = List.copyOf(entries);
    unreadableLines = List.copyOf(unreadableLines);
  }

  /** Reads a transcript file; bytes that are not UTF-8 are replaced rather than rejected. */
  public static Transcript read(Path file) throws IOException {
    requireNonNull(file, "file is null");
    try (Reader reader = TextFiles.reader(file)) {
      return read(reader);
    }
  }

  public static Transcript parse(String jsonl) {
    try {
      return read(new StringReader(jsonl));
    } catch (IOException impossible) {
      throw new IllegalStateException("reading a string failed", impossible);
    }
  }

  private static Transcript read(Reader source) throws IOException {
    List<TranscriptEntry> entries = new ArrayList<>();
    List<Integer> unreadable = new ArrayList<>();
    BufferedReader lines = new BufferedReader(source, 1 << 16);
    int lineNumber = 0;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      Optional<TranscriptEntry> entry = TranscriptParser.parse(line, lineNumber);
      if (entry.isPresent()) {
        entries.add(entry.get());
      } else {
        unreadable.add(lineNumber);
      }
    }
    return new Transcript(entries, unreadable);
  }

  /**
   * Why {@link #currentContext()} is empty, in words: a transcript that was compacted and has had
   * nothing since, one with no readable line at all (not a transcript, or a binary file), or one
   * without messages.
   */
  public String whyNoMessages() {
    if (conversation().stream().anyMatch(TranscriptEntry::isCompactBoundary)) {
      return "the transcript has no messages since its last compaction";
    }
    if (entries.isEmpty() && !unreadableLines.isEmpty()) {
      return "the transcript has no messages: none of its "
          + unreadableLines.size()
          + (unreadableLines.size() == 1 ? " line is" : " lines are")
          + " a JSON object (is it a session's .jsonl transcript?)";
    }
    if (entries.isEmpty()) {
      return "the transcript is empty";
    }
    return "the transcript has no messages yet";
  }

  /** The session id the entries name, if any does. */
  public Optional<String> sessionId() {
    return entries.stream().flatMap(entry -> entry.sessionId().stream()).findFirst();
  }

  /** The working directory the agent recorded, taken from the latest entry that names one. */
  public Optional<String> cwd() {
    for (int i = entries.size() - 1; i >= 0; i--) {
      if (entries.get(i).cwd().isPresent()) {
        return entries.get(i).cwd();
      }
    }
    return Optional.empty();
  }

  /**
   * The conversation as the agent sees it across compactions: the user and assistant messages and
   * compact boundaries on the branch that ends at the latest message. Rewound or abandoned branches
   * and sub-agent (sidechain) messages are left out. When the parent links are missing or broken
   * (hand-written files, older formats) the file order is used instead.
   */
  public List<TranscriptEntry> conversation() {
    List<TranscriptEntry> candidates =
        entries.stream()
            .filter(entry -> !entry.sidechain() && (entry.isMessage() || entry.isCompactBoundary()))
            .toList();
    if (candidates.isEmpty()) {
      return List.of();
    }
    return activeBranch(candidates.getLast()).orElse(candidates);
  }

  /** The user and assistant messages of {@link #conversation()}, boundaries left out. */
  public List<TranscriptEntry> messages() {
    return conversation().stream().filter(TranscriptEntry::isMessage).toList();
  }

  /**
   * The messages after the latest compact boundary: what the agent's context window holds now,
   * which is what token thresholds are measured against.
   */
  public List<TranscriptEntry> currentContext() {
    List<TranscriptEntry> conversation = conversation();
    int start = 0;
    for (int i = conversation.size() - 1; i >= 0; i--) {
      if (conversation.get(i).isCompactBoundary()) {
        start = i + 1;
        break;
      }
    }
    return conversation.subList(start, conversation.size()).stream()
        .filter(TranscriptEntry::isMessage)
        .toList();
  }

  private Optional<List<TranscriptEntry>> activeBranch(TranscriptEntry leaf) {
    Map<String, TranscriptEntry> byUuid = new HashMap<>();
    for (TranscriptEntry entry : entries) {
      entry.uuid().ifPresent(uuid -> byUuid.put(uuid, entry));
    }
    if (leaf.uuid().isEmpty()) {
      return Optional.empty();
    }
    List<TranscriptEntry> branch = new ArrayList<>();
    Set<String> visited = new HashSet<>();
    TranscriptEntry current = leaf;
    while (current != null) {
      if (!visited.add(current.uuid().orElse(""))) {
        return Optional.empty();
      }
      if (!current.sidechain() && (current.isMessage() || current.isCompactBoundary())) {
        branch.add(current);
      }
      TranscriptEntry child = current;
      if (child.parentUuid().isPresent()) {
        current = byUuid.get(child.parentUuid().get());
        if (current == null) {
          return Optional.empty();
        }
      } else if (child.isCompactBoundary() && child.logicalParentUuid().isPresent()) {
        // A boundary starts a new chain; its logical parent links back to the history it
        // replaced. Older files may have lost that history, which is not an error.
        current = byUuid.get(child.logicalParentUuid().get());
      } else {
        current = null;
      }
    }
    Collections.reverse(branch);
    return Optional.of(branch);
  }
}
