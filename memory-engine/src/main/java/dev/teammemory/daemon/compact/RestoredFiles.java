package dev.teammemory.daemon.compact;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The files the agent read most recently, read again after compaction so that it does not have to:
 * the {@value #MAX_FILES} most recent whose read is not still in a kept message, {@value
 * #MAX_TOKENS_TOTAL} tokens in all. A file over {@value #MAX_TOKENS_PER_FILE} tokens is not cut
 * short but named, with a note that it was read and can be read again; files that are gone or not
 * text are skipped.
 */
final class RestoredFiles {

  static final int MAX_FILES = 5;
  static final long MAX_TOKENS_PER_FILE = 5_000;
  static final long MAX_TOKENS_TOTAL = 50_000;

  /** Enough bytes to tell whether a file fits: a character is at most four bytes. */
  private static final int MAX_BYTES_READ = (int) MAX_TOKENS_PER_FILE * 4 * 4 + 4;

  /**
   * One file as it is given back to the agent.
   *
   * @param content the file's text, or for a file too large to give back, the note that names it
   * @param byPath whether the file is only named, being too large to give back
   */
  record RestoredFile(Path path, String content, long tokens, boolean byPath) {
    RestoredFile {
      requireNonNull(path, "path is null");
      requireNonNull(content, "content is null");
    }
  }

  private RestoredFiles() {}

  /**
   * @param conversation the messages before compaction, oldest first
   * @param kept the messages that stay
   * @param workingDirectory where relative paths in tool calls start
   */
  static List<RestoredFile> restore(
      List<TranscriptEntry> conversation, List<TranscriptEntry> kept, Path workingDirectory) {
    Set<Path> visible = new LinkedHashSet<>();
    kept.forEach(message -> readPaths(message, workingDirectory).forEach(visible::add));
    Set<Path> recent = new LinkedHashSet<>();
    for (int i = conversation.size() - 1; i >= 0; i--) {
      List<Path> paths = readPaths(conversation.get(i), workingDirectory);
      for (int j = paths.size() - 1; j >= 0; j--) {
        recent.add(paths.get(j));
      }
    }
    List<RestoredFile> restored = new ArrayList<>();
    long budget = 0;
    List<Path> candidates =
        recent.stream().filter(path -> !visible.contains(path)).limit(MAX_FILES).toList();
    for (Path path : candidates) {
      RestoredFile file = read(path);
      // Like the reference, a file that does not fit what is left of the budget is passed over
      // and a smaller one after it may still fit.
      if (file != null && budget + file.tokens() <= MAX_TOKENS_TOTAL) {
        restored.add(file);
        budget += file.tokens();
      }
    }
    return restored;
  }

  private static List<Path> readPaths(TranscriptEntry message, Path workingDirectory) {
    List<Path> paths = new ArrayList<>();
    for (ContentBlock.ToolUse use : message.toolUses()) {
      if (!use.name().equals("Read")) {
        continue;
      }
      use.stringInput("file_path")
          .ifPresent(
              path -> {
                try {
                  paths.add(workingDirectory.resolve(path).toAbsolutePath().normalize());
                } catch (InvalidPathException notAPath) {
                  // A malformed path in a tool call names no file to restore.
                }
              });
    }
    return paths;
  }

  private static RestoredFile read(Path path) {
    if (!Files.isRegularFile(path)) {
      return null;
    }
    String text;
    long size;
    try {
      // Only what can be restored is read, however large the file (the agent may have read a
      // multi-gigabyte log): a character is at most four bytes.
      Optional<TextFiles.Head> head = TextFiles.strictHead(path, MAX_BYTES_READ);
      if (head.isEmpty()) {
        return null;
      }
      text = head.get().text();
      size = head.get().size();
    } catch (IOException unreadable) {
      return null;
    }
    if (text.indexOf('\0') >= 0) {
      return null;
    }
    if (size > MAX_BYTES_READ || Tokens.rough(text) > MAX_TOKENS_PER_FILE) {
      String note =
          path
              + " was read before this conversation was compacted, but it is too large to give"
              + " back here. Read it again with the Read tool if you need it.";
      return new RestoredFile(path, note, Tokens.rough(note), true);
    }
    return new RestoredFile(path, text, Tokens.rough(text), false);
  }
}
