package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.memory.MemoryType;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The entries of the daily logs ({@code logs/YYYY/MM/YYYY-MM-DD.md}), distilled into topic files
 * without a model: each bullet becomes a memory of the type it names ({@code - 14:05 feedback: …})
 * or, unnamed, the type its words show, written as the offline extractor writes memories, so that
 * an entry already in a topic file changes nothing. Entries that memory must not hold (task state,
 * git history, secrets) are left in the log. Daily-log mode has no team memory, so everything goes
 * to the private folder.
 */
public final class LoggedMemories {

  private static final Pattern BULLET =
      Pattern.compile(
          "^\\s*[-*+]\\s+(?:\\d{1,2}:\\d{2}\\s+)?(?:(user|feedback|project|reference):\\s*)?(.+)$",
          Pattern.CASE_INSENSITIVE);

  /** A day's log is a few kilobytes of bullets; far more than that is not worth holding whole. */
  static final int MAX_LOG_BYTES = 4 * 1024 * 1024;

  private static final Pattern LOG_NAME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})\\.md");

  /** What distilling one log did. */
  public record Distilled(Path log, int entries, List<Path> created, List<Path> updated) {
    public Distilled {
      requireNonNull(log, "log is null");
      created = List.copyOf(created);
      updated = List.copyOf(updated);
    }
  }

  private LoggedMemories() {}

  /** The daily logs written since {@code since}, oldest first. */
  public static List<Path> logsSince(Path memoryDirectory, Instant since) throws IOException {
    Path logs = memoryDirectory.resolve("logs");
    if (!Files.isDirectory(logs)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(logs, 3)) {
      List<Path> found = new ArrayList<>();
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        if (LOG_NAME.matcher(file.getFileName().toString()).matches()
            && Files.getLastModifiedTime(file).toInstant().isAfter(since)) {
          found.add(file);
        }
      }
      return found;
    }
  }

  /**
   * Writes the entries of {@code log} into topic files in {@code memoryDirectory}.
   *
   * @throws IOException when the log or the memory folder cannot be read or written
   */
  public static Distilled distil(Path memoryDirectory, Path log, SecretGuard guard)
      throws IOException {
    List<String> lines;
    try {
      lines = entryLines(log);
    } catch (NoSuchFileException gone) {
      return new Distilled(log, 0, List.of(), List.of());
    }
    LocalDate day = day(log);
    List<Path> created = new ArrayList<>();
    List<Path> updated = new ArrayList<>();
    int entries = 0;
    for (String line : lines) {
      Matcher bullet = BULLET.matcher(line);
      if (!bullet.matches()) {
        continue;
      }
      entries++;
      Optional<MemoryType> named =
          Optional.ofNullable(bullet.group(1))
              .flatMap(type -> MemoryType.parse(type.toLowerCase(Locale.ROOT)));
      Optional<Candidate> candidate =
          OfflineExtractor.fromLogEntry(bullet.group(2).strip(), named, day, guard);
      if (candidate.isEmpty()) {
        continue;
      }
      TopicFiles.Saved saved = TopicFiles.save(memoryDirectory, candidate.get(), day);
      switch (saved.change()) {
        case CREATED -> created.add(saved.file());
        case UPDATED -> updated.add(saved.file());
        case UNCHANGED -> {
          // Already distilled, or already known.
        }
      }
    }
    return new Distilled(log, entries, created, updated);
  }

  /**
   * The log's lines, read as the agent reads it: a byte that is not UTF-8 costs one character, not
   * the whole log (and with it every later dream). A log larger than {@value #MAX_LOG_BYTES} bytes
   * is distilled up to its last whole line within that, rather than read whole into memory.
   */
  private static List<String> entryLines(Path log) throws IOException {
    TextFiles.Head head = TextFiles.head(log, MAX_LOG_BYTES);
    String text = head.text();
    if (!head.complete()) {
      int lastLineEnd = text.lastIndexOf('\n');
      text = lastLineEnd < 0 ? "" : text.substring(0, lastLineEnd);
    }
    return text.lines().toList();
  }

  private static LocalDate day(Path log) {
    Matcher name = LOG_NAME.matcher(log.getFileName().toString());
    try {
      return name.matches() ? LocalDate.parse(name.group(1)) : LocalDate.EPOCH;
    } catch (DateTimeParseException notADate) {
      return LocalDate.EPOCH;
    }
  }
}
