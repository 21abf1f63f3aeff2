package dev.teammemory.daemon.memory;

import dev.teammemory.daemon.files.TextFiles;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Lists the topic files of a memory directory, newest first: every {@code .md} file below it except
 * {@code MEMORY.md}, at most {@value #MAX_FILES}, each described by the frontmatter in its first
 * {@value #FRONTMATTER_LINES} lines. Files are ranked by modification time before any is opened, so
 * a directory of thousands of memories costs one stat each and 200 small reads. Symbolic links are
 * skipped: a link could point the scan at files outside memory.
 */
public final class MemoryScan {

  public static final int MAX_FILES = 200;
  static final int FRONTMATTER_LINES = 30;

  /** The most of one file the scan reads: the frontmatter is at its start. */
  private static final int MAX_HEAD_BYTES = 64 * 1024;

  /** A frontmatter line longer than this is not one worth reading. */
  private static final int MAX_LINE_CHARACTERS = 8_192;

  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private MemoryScan() {}

  public static List<MemoryHeader> scan(Path memoryDirectory) throws IOException {
    return scan(memoryDirectory, MAX_FILES);
  }

  /** The newest {@code limit} topic files; an absent directory has none. */
  public static List<MemoryHeader> scan(Path memoryDirectory, int limit) throws IOException {
    if (!Files.isDirectory(memoryDirectory)) {
      return List.of();
    }
    List<Candidate> candidates = new ArrayList<>();
    Files.walkFileTree(
        memoryDirectory,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String name = file.getFileName().toString();
            if (attributes.isRegularFile()
                && name.endsWith(".md")
                && !name.equals(MemoryLocation.INDEX_FILE)) {
              candidates.add(
                  new Candidate(
                      file, attributes.lastModifiedTime().toInstant(), attributes.size()));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException failure) {
            // An unreadable entry must not hide the rest of the directory.
            return FileVisitResult.CONTINUE;
          }
        });
    candidates.sort(
        Comparator.comparing(Candidate::modified)
            .reversed()
            .thenComparing(candidate -> candidate.file().toString()));
    List<MemoryHeader> headers = new ArrayList<>(Math.min(limit, candidates.size()));
    for (Candidate candidate : candidates) {
      if (headers.size() >= limit) {
        break;
      }
      HEADERS.get(memoryDirectory, candidate).ifPresent(headers::add);
    }
    return headers;
  }

  /**
   * The manifest a selector is shown, one line per file: {@code - [type] path (ISO mtime):
   * description}, the type and description left out when the file has none.
   */
  public static String manifest(List<MemoryHeader> headers) {
    return headers.stream().map(MemoryScan::manifestLine).collect(Collectors.joining("\n"));
  }

  static String manifestLine(MemoryHeader header) {
    String tag = header.type().map(type -> "[" + type.wireName() + "] ").orElse("");
    String timestamp = ISO_MILLIS.format(header.modified());
    return header.description().isPresent()
        ? "- " + tag + header.filename() + " (" + timestamp + "): " + header.description().get()
        : "- " + tag + header.filename() + " (" + timestamp + ")";
  }

  private record Candidate(Path file, Instant modified, long size) {}

  private static final Headers HEADERS = new Headers();

  /**
   * Headers read before, by file, kept while the file's modification time and size stay the same: a
   * long-running process (the daemon answering every prompt's recall) then reads only the files
   * that changed. A file rewritten to the same size within the file system's timestamp resolution
   * keeps its old header until it changes again; frontmatter edits that keep size and second are
   * rare enough to accept that.
   */
  private static final class Headers {

    private static final int MAX_ENTRIES = 4_096;

    private record Key(Path memoryDirectory, Path file) {}

    private record Known(Instant modified, long size, Optional<MemoryHeader> header) {}

    private final Map<Key, Known> entries =
        new LinkedHashMap<>(256, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Known> eldest) {
            return size() > MAX_ENTRIES;
          }
        };

    Optional<MemoryHeader> get(Path memoryDirectory, Candidate candidate) {
      Key key = new Key(memoryDirectory, candidate.file());
      synchronized (entries) {
        Known known = entries.get(key);
        if (known != null
            && known.modified().equals(candidate.modified())
            && known.size() == candidate.size()) {
          return known.header();
        }
      }
      Optional<MemoryHeader> header = read(memoryDirectory, candidate);
      if (header.isPresent()) {
        synchronized (entries) {
          entries.put(key, new Known(candidate.modified(), candidate.size(), header));
        }
      }
      return header;
    }
  }

  private static Optional<MemoryHeader> read(Path memoryDirectory, Candidate candidate) {
    StringBuilder head = new StringBuilder();
    try {
      // However large the file (a one-line log saved as .md), only its start is read.
      String start = TextFiles.head(candidate.file(), MAX_HEAD_BYTES).text();
      int line = 0;
      for (int from = 0; from < start.length() && line < FRONTMATTER_LINES; line++) {
        int end = start.indexOf('\n', from);
        String text = start.substring(from, end < 0 ? start.length() : end);
        if (text.endsWith("\r")) {
          text = text.substring(0, text.length() - 1);
        }
        head.append(
                text.length() > MAX_LINE_CHARACTERS ? text.substring(0, MAX_LINE_CHARACTERS) : text)
            .append('\n');
        if (end < 0) {
          break;
        }
        from = end + 1;
      }
    } catch (IOException deletedOrUnreadable) {
      // Gone since the listing, or not a file any more: the other memories still count.
      return Optional.empty();
    }
    Frontmatter frontmatter = Frontmatter.parse(head.toString());
    String relative = memoryDirectory.relativize(candidate.file()).toString().replace('\\', '/');
    return Optional.of(
        new MemoryHeader(
            relative,
            candidate.file().toAbsolutePath().normalize(),
            candidate.modified(),
            frontmatter.string("name"),
            frontmatter.string("description"),
            frontmatter.type()));
  }
}
