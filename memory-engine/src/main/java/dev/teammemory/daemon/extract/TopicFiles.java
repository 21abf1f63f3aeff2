package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.memory.MemoryType;
import dev.teammemory.daemon.memory.TopicIndex;
import dev.teammemory.daemon.memory.WordOverlap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes memories the way the instructions ask an agent to: a topic file with frontmatter, then one
 * line in the folder's {@code MEMORY.md}. A memory close to an existing one of the same type
 * updates that file instead of starting a duplicate; one already stated there changes nothing.
 */
final class TopicFiles {

  /** Index lines are kept short: the index is always in the agent's context. */
  static final int MAX_INDEX_LINE = TopicIndex.MAX_LINE;

  private static final double SAME_TOPIC = 0.5;
  private static final Set<String> STOP_WORDS =
      Set.of(
          "the", "and", "for", "with", "that", "this", "use", "not", "are", "was", "you", "your",
          "our", "all", "any", "but", "its", "from", "into", "when", "then", "than", "have", "has",
          "always", "never", "don", "dont", "please", "instead", "should", "must", "will", "just",
          "too", "also");

  /** What a save did to a file. */
  enum Change {
    CREATED,
    UPDATED,
    UNCHANGED
  }

  record Saved(Path file, Change change) {
    Saved {
      requireNonNull(file, "file is null");
      requireNonNull(change, "change is null");
    }
  }

  /** Topic files a memory is added to are a few kilobytes; larger ones are left as they are. */
  private static final int MAX_TOPIC_BYTES = 1024 * 1024;

  private TopicFiles() {}

  /**
   * Saves one memory in {@code directory} (the private memory folder or its {@code team/}).
   *
   * @param today the date written into the memory's **Why:** line
   */
  static Saved save(Path directory, Candidate candidate, LocalDate today) throws IOException {
    Files.createDirectories(directory);
    String quote = quote(candidate.text());
    String why = "**Why:** " + candidate.why() + " (" + today + ").";
    Optional<Path> sameTopic = sameTopic(directory, candidate);
    if (sameTopic.isPresent()) {
      Path file = sameTopic.get();
      String content = TextFiles.readExactly(file, MAX_TOPIC_BYTES).orElseThrow();
      if (WordOverlap.normalized(content).contains(WordOverlap.normalized(candidate.lead()))) {
        return new Saved(file, Change.UNCHANGED);
      }
      String updated = content.stripTrailing() + "\n\n" + quote + "\n\n" + why + "\n";
      AtomicFiles.write(file, updated.getBytes(StandardCharsets.UTF_8));
      return new Saved(file, Change.UPDATED);
    }
    String type = candidate.type().wireName();
    String name = MemoryNaming.slug(candidate.lead(), type + "-memory");
    Path file = uniqueFile(directory, name);
    String description = MemoryNaming.description(candidate.lead());
    String content =
        "---\n"
            + "name: "
            + name
            + "\ndescription: "
            + quoted(description)
            + "\ntype: "
            + type
            + "\nmetadata:\n  type: "
            + type
            + "\n---\n\n"
            + description
            + (description.endsWith(".") || description.endsWith("…") ? "" : ".")
            + "\n\n"
            + quote
            + "\n\n"
            + why
            + "\n**How to apply:** "
            + howToApply(candidate.type())
            + "\n";
    AtomicFiles.write(file, content.getBytes(StandardCharsets.UTF_8));
    index(directory, file, name, description);
    return new Saved(file, Change.CREATED);
  }

  private static String howToApply(MemoryType type) {
    return switch (type) {
      case USER -> "keep this in mind when tailoring answers to the user.";
      case FEEDBACK -> "follow this in future sessions unless the user says otherwise.";
      case PROJECT -> "take this into account when planning or changing related work.";
      case REFERENCE -> "look there when the subject comes up.";
    };
  }

  /** What the user said, as a markdown quote. */
  private static String quote(String text) {
    return text.strip().lines().map(line -> "> " + line).collect(Collectors.joining("\n"));
  }

  /** Adds or replaces the one index line that points at {@code file}. */
  static void index(Path directory, Path file, String name, String description) throws IOException {
    TopicIndex.put(directory, file, name, description);
  }

  private static Optional<Path> sameTopic(Path directory, Candidate candidate) throws IOException {
    Set<String> words = words(candidate.lead());
    Path best = null;
    double bestScore = 0;
    for (MemoryHeader header : MemoryScan.scan(directory)) {
      if (!header.file().getParent().equals(directory.toAbsolutePath().normalize())
          || !header.type().equals(Optional.of(candidate.type()))) {
        continue;
      }
      String body;
      try {
        // A file that cannot be rewritten exactly is never the one a memory is added to.
        Optional<String> exact = TextFiles.readExactly(header.file(), MAX_TOPIC_BYTES);
        if (exact.isEmpty()) {
          continue;
        }
        body = exact.get();
      } catch (IOException unreadable) {
        continue;
      }
      if (WordOverlap.normalized(body).contains(WordOverlap.normalized(candidate.lead()))) {
        return Optional.of(header.file());
      }
      double score =
          WordOverlap.similarity(
              words, words(header.description().orElse("") + " " + header.name().orElse("")));
      if (score >= SAME_TOPIC && score > bestScore) {
        best = header.file();
        bestScore = score;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The words that name a topic: {@link WordOverlap#words}, less the words any instruction uses
   * ("always", "never", "instead"). Consolidation keeps those: there they tell two memories apart.
   */
  static Set<String> words(String text) {
    Set<String> words = WordOverlap.words(text);
    words.removeAll(STOP_WORDS);
    return words;
  }

  private static Path uniqueFile(Path directory, String stem) {
    Path file = directory.resolve(stem + ".md");
    for (int i = 2; Files.exists(file); i++) {
      file = directory.resolve(stem + "-" + i + ".md");
    }
    return file;
  }

  static String oneLine(String text, int max) {
    return TopicIndex.oneLine(text, max);
  }

  /**
   * A YAML double-quoted scalar, so that a {@code :} in a description never breaks the frontmatter.
   */
  static String quoted(String value) {
    return TopicIndex.quoted(value);
  }
}
