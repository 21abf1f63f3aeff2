package dev.teammemory.daemon.dream;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryIndex;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.memory.WordOverlap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Consolidation without a model, limited to what needs no judgement:
 *
 * <ul>
 *   <li>exact duplicates (same type, same body) are removed, keeping the newest;
 *   <li>near duplicates (same type, at least {@value #NEAR_DUPLICATE_PERCENT}% of their words
 *       shared) are merged into the newest: its body gains the other's lines it lacks;
 *   <li>"today", "yesterday" and "tomorrow" become dates, counted from the day the file was last
 *       written;
 *   <li>{@code MEMORY.md} loses pointers to files that are gone, points merged files at their
 *       survivor, gains pointers to topic files it lacks, keeps each entry to {@value
 *       #MAX_ENTRY_CHARACTERS} characters, and is held within 200 lines and 25,000 characters by
 *       dropping the entries of the oldest files.
 * </ul>
 *
 * Team memory ({@code team/}) is left alone: it is shared, and a local deletion there would come
 * back with the next pull. The daily logs themselves are never rewritten; their entries reach topic
 * files in the gather phase ({@code LoggedMemories}).
 */
final class OfflineConsolidation {

  static final int NEAR_DUPLICATE_PERCENT = 80;
  static final int MAX_ENTRY_CHARACTERS = 150;

  private static final Pattern RELATIVE_DAY =
      Pattern.compile("\\b(today|yesterday|tomorrow)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern ENTRY = Pattern.compile("^\\s*[-*+]\\s.*?\\]\\(([^)\\s]+\\.md)\\)");

  /** A link target that is not a file beside the index: a URL ({@code https:}), or absolute. */
  private static final Pattern NOT_LOCAL = Pattern.compile("^(?:[A-Za-z][A-Za-z0-9+.-]*:|/|#)");

  /** An index larger than this is not rewritten: it is far beyond what an agent is shown. */
  private static final int MAX_INDEX_BYTES = 4 * 1024 * 1024;

  private OfflineConsolidation() {}

  /** The topic files consolidation looks at: the private ones, newest first. */
  static List<TopicFile> orient(Path memoryDirectory) throws IOException {
    Path team = memoryDirectory.resolve("team");
    Path logs = memoryDirectory.resolve("logs");
    List<TopicFile> files = new ArrayList<>();
    for (MemoryHeader header : MemoryScan.scan(memoryDirectory, Integer.MAX_VALUE)) {
      Path file = header.file();
      if (file.startsWith(team.toAbsolutePath().normalize())
          || file.startsWith(logs.toAbsolutePath().normalize())) {
        continue;
      }
      try {
        TopicFile.read(header).ifPresent(files::add);
      } catch (IOException deletedOrUnreadable) {
        // Gone since the scan, or not a file: the others are still consolidated.
        continue;
      }
    }
    return files;
  }

  /** Merges duplicates and fixes relative dates. */
  static List<PlannedChange> consolidate(
      List<TopicFile> files, Clock clock, Map<Path, Path> mergedInto) {
    Map<Path, String> bodies = new LinkedHashMap<>();
    files.forEach(file -> bodies.put(file.file(), file.body()));
    Set<Path> deleted = new LinkedHashSet<>();
    List<PlannedChange> deletions = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      TopicFile survivor = files.get(i);
      if (deleted.contains(survivor.file())) {
        continue;
      }
      for (int j = i + 1; j < files.size(); j++) {
        TopicFile older = files.get(j);
        if (deleted.contains(older.file())
            || !survivor.header().type().equals(older.header().type())) {
          continue;
        }
        String survivorBody = bodies.get(survivor.file());
        String survivorWords = WordOverlap.normalized(survivorBody);
        if (survivorWords.isEmpty()) {
          // A memory of frontmatter alone says what it says in its description; an empty body is
          // no evidence that two of them are one memory.
          break;
        }
        if (survivorWords.equals(WordOverlap.normalized(older.body()))) {
          deleted.add(older.file());
          mergedInto.put(older.file(), survivor.file());
          deletions.add(
              PlannedChange.delete(
                  older.file(), "exact duplicate of " + survivor.file().getFileName()));
        } else if (WordOverlap.similarity(
                    WordOverlap.words(survivorBody), WordOverlap.words(older.body()))
                * 100
            >= NEAR_DUPLICATE_PERCENT) {
          bodies.put(survivor.file(), merged(survivorBody, older.body()));
          deleted.add(older.file());
          mergedInto.put(older.file(), survivor.file());
          deletions.add(
              PlannedChange.delete(
                  older.file(), "near duplicate, merged into " + survivor.file().getFileName()));
        }
      }
    }
    List<PlannedChange> changes = new ArrayList<>();
    for (TopicFile file : files) {
      if (deleted.contains(file.file())) {
        continue;
      }
      String body = bodies.get(file.file());
      LocalDate written = LocalDate.ofInstant(file.header().modified(), clock.getZone());
      String absolute = absoluteDates(body, written);
      List<String> reasons = new ArrayList<>();
      if (!body.equals(file.body())) {
        reasons.add("merged a near duplicate");
      }
      if (!absolute.equals(body)) {
        reasons.add("relative dates made absolute");
      }
      if (!reasons.isEmpty()) {
        changes.add(
            PlannedChange.rewrite(
                file.file(), String.join(", ", reasons), file.frontmatter() + absolute));
      }
    }
    // Rewrites come first, as apply() makes them: a merged file goes only once its lines are safe.
    changes.addAll(deletions);
    return changes;
  }

  /**
   * The index with dead pointers pruned, merged ones redirected, missing ones added, limits held.
   */
  static Optional<PlannedChange> index(
      Path memoryDirectory, List<TopicFile> files, Map<Path, Path> mergedInto) throws IOException {
    Path indexFile = memoryDirectory.resolve(MemoryLocation.INDEX_FILE);
    String before;
    try {
      Optional<String> exact = TextFiles.readExactly(indexFile, MAX_INDEX_BYTES);
      if (exact.isEmpty()) {
        // Not valid UTF-8, or far beyond any limit: rewriting it could lose what it holds.
        return Optional.empty();
      }
      before = exact.get();
    } catch (NoSuchFileException none) {
      before = "";
    }
    Map<Path, TopicFile> byPath = new HashMap<>();
    files.forEach(file -> byPath.put(file.file(), file));
    List<String> lines = new ArrayList<>();
    Map<Integer, Path> entryTargets = new HashMap<>();
    Set<Path> pointed = new HashSet<>();
    List<String> reasons = new ArrayList<>();
    for (String line : before.lines().toList()) {
      Matcher entry = ENTRY.matcher(line);
      if (!entry.find() || NOT_LOCAL.matcher(entry.group(1)).find()) {
        // Not a pointer to a topic file here (a web page's api.md is not missing): kept as is.
        lines.add(line);
        continue;
      }
      Path target;
      try {
        target = memoryDirectory.resolve(unescaped(entry.group(1))).toAbsolutePath().normalize();
      } catch (InvalidPathException notAPath) {
        lines.add(line);
        continue;
      }
      String text = line;
      if (mergedInto.containsKey(target)) {
        Path survivor = mergedInto.get(target);
        text =
            line.replace(
                "](" + entry.group(1) + ")", "](" + linkTarget(memoryDirectory, survivor) + ")");
        target = survivor;
        addOnce(reasons, "redirected pointers to merged files");
      }
      if (!Files.exists(target)) {
        addOnce(reasons, "removed pointers to missing files");
        continue;
      }
      if (!pointed.add(target)) {
        addOnce(reasons, "removed duplicate pointers");
        continue;
      }
      if (text.length() > MAX_ENTRY_CHARACTERS) {
        text = text.substring(0, MAX_ENTRY_CHARACTERS - 1).stripTrailing() + "…";
        addOnce(reasons, "shortened entries over " + MAX_ENTRY_CHARACTERS + " characters");
      }
      entryTargets.put(lines.size(), target);
      lines.add(text);
    }
    List<TopicFile> unindexed =
        files.stream()
            .filter(file -> !mergedInto.containsKey(file.file()) && !pointed.contains(file.file()))
            .toList();
    for (TopicFile file : unindexed) {
      String name = file.header().name().orElse(stem(file.file()));
      String line =
          "- ["
              + name
              + "]("
              + linkTarget(memoryDirectory, file.file())
              + ")"
              + file.header().description().map(description -> " — " + description).orElse("");
      if (line.length() > MAX_ENTRY_CHARACTERS) {
        line = line.substring(0, MAX_ENTRY_CHARACTERS - 1).stripTrailing() + "…";
      }
      entryTargets.put(lines.size(), file.file());
      lines.add(line);
      addOnce(reasons, "added pointers to unindexed topic files");
    }
    if (tooLarge(lines)) {
      // The oldest memories give way first; their files stay, only their pointers go.
      List<Integer> oldestFirst =
          entryTargets.keySet().stream()
              .sorted(
                  Comparator.comparing(
                      (Integer position) -> modified(byPath, entryTargets.get(position))))
              .toList();
      Set<Integer> dropped = new HashSet<>();
      for (Integer position : oldestFirst) {
        if (!tooLarge(without(lines, dropped))) {
          break;
        }
        dropped.add(position);
      }
      lines = without(lines, dropped);
      reasons.add(
          "dropped "
              + dropped.size()
              + " entries of the oldest memories to stay within "
              + MemoryIndex.MAX_LINES
              + " lines and "
              + MemoryIndex.MAX_CHARACTERS
              + " characters");
    }
    String after = lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    if (after.equals(before) || (before.isEmpty() && lines.isEmpty())) {
      return Optional.empty();
    }
    return Optional.of(PlannedChange.rewrite(indexFile, String.join(", ", reasons), after));
  }

  /**
   * Makes every rewrite before any deletion: a deleted duplicate's lines may live on only in a
   * survivor's rewrite, so when a rewrite fails the duplicate must still be there.
   */
  static void apply(List<PlannedChange> changes) throws IOException {
    for (PlannedChange change : changes) {
      if (change.action() == PlannedChange.Action.REWRITE) {
        AtomicFiles.write(
            change.file(), change.content().orElseThrow().getBytes(StandardCharsets.UTF_8));
      }
    }
    for (PlannedChange change : changes) {
      if (change.action() == PlannedChange.Action.DELETE) {
        Files.deleteIfExists(change.file());
      }
    }
  }

  static String absoluteDates(String body, LocalDate written) {
    Matcher matcher = RELATIVE_DAY.matcher(body);
    StringBuilder result = new StringBuilder();
    while (matcher.find()) {
      LocalDate date =
          switch (matcher.group(1).toLowerCase(Locale.ROOT)) {
            case "yesterday" -> written.minusDays(1);
            case "tomorrow" -> written.plusDays(1);
            default -> written;
          };
      matcher.appendReplacement(result, date.toString());
    }
    matcher.appendTail(result);
    return result.toString();
  }

  private static String merged(String survivor, String older) {
    Set<String> present = new HashSet<>();
    survivor.lines().map(WordOverlap::normalized).forEach(present::add);
    StringBuilder body = new StringBuilder(survivor.stripTrailing());
    for (String line : older.lines().toList()) {
      if (!line.isBlank() && present.add(WordOverlap.normalized(line))) {
        body.append('\n').append(line);
      }
    }
    return body.append('\n').toString();
  }

  private static boolean tooLarge(List<String> lines) {
    return lines.size() > MemoryIndex.MAX_LINES
        || String.join("\n", lines).length() > MemoryIndex.MAX_CHARACTERS;
  }

  private static List<String> without(List<String> lines, Set<Integer> dropped) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!dropped.contains(i)) {
        kept.add(lines.get(i));
      }
    }
    return kept;
  }

  private static java.time.Instant modified(Map<Path, TopicFile> byPath, Path file) {
    TopicFile topic = byPath.get(file);
    if (topic != null) {
      return topic.header().modified();
    }
    try {
      return Files.getLastModifiedTime(file).toInstant();
    } catch (IOException gone) {
      return java.time.Instant.EPOCH;
    }
  }

  private static void addOnce(List<String> reasons, String reason) {
    if (!reasons.contains(reason)) {
      reasons.add(reason);
    }
  }

  private static String relative(Path memoryDirectory, Path file) {
    return memoryDirectory
        .toAbsolutePath()
        .normalize()
        .relativize(file)
        .toString()
        .replace('\\', '/');
  }

  /**
   * The file as a Markdown link target that {@link #ENTRY} reads back: a space or a parenthesis
   * would end the target, so they (and the escape character itself) are percent-encoded.
   */
  static String linkTarget(Path memoryDirectory, Path file) {
    return relative(memoryDirectory, file)
        .replace("%", "%25")
        .replace(" ", "%20")
        .replace("(", "%28")
        .replace(")", "%29");
  }

  /** A link target's percent-encoded bytes decoded as UTF-8; a stray {@code %} stays as it is. */
  static String unescaped(String target) {
    if (target.indexOf('%') < 0) {
      return target;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < target.length(); ) {
      char c = target.charAt(i);
      if (c == '%' && isHex(target, i + 1) && isHex(target, i + 2)) {
        bytes.write(Integer.parseInt(target.substring(i + 1, i + 3), 16));
        i += 3;
      } else {
        int codePoint = target.codePointAt(i);
        bytes.writeBytes(Character.toString(codePoint).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(codePoint);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(String text, int at) {
    return at < text.length() && Character.digit(text.charAt(at), 16) >= 0;
  }

  private static String stem(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
  }
}
