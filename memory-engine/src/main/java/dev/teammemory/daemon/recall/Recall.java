package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.memory.MemoryHeader;
import dev.teammemory.daemon.memory.MemoryScan;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.model.ModelOutcome;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Finds the memories relevant to a query, as the reference's recall does: at most {@value
 * #MAX_MEMORIES} topic files not surfaced earlier in the session, each cut at {@value #MAX_LINES}
 * lines or {@value #MAX_BYTES} bytes, with a freshness note when older than a day, and no more than
 * {@value #MAX_SESSION_BYTES} bytes of memory content in a whole session. A model picks the files
 * when there is one; otherwise, or when the model fails, lexical ranking does.
 */
public final class Recall {

  public static final int MAX_MEMORIES = 5;
  public static final int MAX_LINES = 200;
  public static final int MAX_BYTES = 4_096;
  public static final int MAX_SESSION_BYTES = 60 * 1024;

  /** What recall reads of a memory: more than it shows, so a cut can say which limit was hit. */
  private static final int SHOWN_AT_MOST_BYTES = 64 * 1024;

  private static final long DAY_MILLIS = Duration.ofDays(1).toMillis();

  private final LanguageModel model;
  private final Clock clock;
  private final Optional<Duration> modelDeadline;

  public Recall(LanguageModel model, Clock clock) {
    this(model, clock, Optional.empty());
  }

  /**
   * @param modelDeadline how long the model may take to pick memories before lexical ranking picks
   *     them instead; empty to wait for the model's own timeouts and retries
   */
  public Recall(LanguageModel model, Clock clock, Optional<Duration> modelDeadline) {
    this.model = requireNonNull(model, "model is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.modelDeadline = requireNonNull(modelDeadline, "modelDeadline is null");
  }

  /**
   * Recalls memories for {@code query} from {@code memoryDirectory} (the team folder inside it
   * included).
   *
   * @param recentTools tools the agent is using, whose usage notes are not worth surfacing
   * @param surfaced what this session was already shown
   */
  public RecallResult recall(
      Path memoryDirectory, String query, List<String> recentTools, SurfacedMemories surfaced)
      throws IOException {
    return recall(memoryDirectory, query, recentTools, surfaced, Set.of());
  }

  /**
   * As {@link #recall(Path, String, List, SurfacedMemories)}, leaving out files the agent already
   * read in the session: they are in its context.
   *
   * @param alreadyRead absolute paths of files the agent read
   */
  public RecallResult recall(
      Path memoryDirectory,
      String query,
      List<String> recentTools,
      SurfacedMemories surfaced,
      Set<Path> alreadyRead)
      throws IOException {
    requireNonNull(query, "query is null");
    Set<Path> read = Set.copyOf(alreadyRead);
    List<String> tools = List.copyOf(recentTools);
    if (surfaced.bytes() >= MAX_SESSION_BYTES) {
      return new RecallResult(
          List.of(), "nothing (session budget used)", 0, surfaced.bytes(), true);
    }
    List<MemoryHeader> candidates =
        MemoryScan.scan(memoryDirectory).stream()
            .filter(header -> !surfaced.contains(header.file()))
            .filter(header -> !read.contains(header.file().toAbsolutePath().normalize()))
            .toList();
    if (candidates.isEmpty() || query.isBlank()) {
      return new RecallResult(List.of(), rankedBy(), candidates.size(), surfaced.bytes(), false);
    }
    Selection selection = select(query, candidates, tools);
    long sessionBytes = surfaced.bytes();
    boolean budgetExhausted = false;
    List<RecalledMemory> memories = new ArrayList<>();
    for (MemoryHeader header : selection.headers()) {
      Optional<RecalledMemory> memory = read(header);
      if (memory.isEmpty()) {
        continue;
      }
      if (sessionBytes + memory.get().bytes() > MAX_SESSION_BYTES) {
        budgetExhausted = true;
        continue;
      }
      sessionBytes += memory.get().bytes();
      memories.add(memory.get());
    }
    return new RecallResult(
        memories, selection.rankedBy(), candidates.size(), sessionBytes, budgetExhausted);
  }

  private record Selection(List<MemoryHeader> headers, String rankedBy) {}

  private Selection select(String query, List<MemoryHeader> candidates, List<String> tools) {
    return switch (model) {
      case OfflineLanguageModel offline ->
          new Selection(
              LexicalRanking.rank(query, candidates, tools, MAX_MEMORIES),
              "lexical ranking (" + offline.describe() + ")");
      case AnthropicLanguageModel anthropic -> {
        Optional<ModelOutcome<List<String>>> inTime =
            withinDeadline(() -> ModelSelection.select(anthropic, query, candidates, tools));
        if (inTime.isEmpty()) {
          yield new Selection(
              LexicalRanking.rank(query, candidates, tools, MAX_MEMORIES),
              "lexical ranking (the model took longer than "
                  + modelDeadline.orElseThrow().toMillis()
                  + " ms)");
        }
        yield switch (inTime.get()) {
          case ModelOutcome.Answered<List<String>> answered -> {
            Map<String, MemoryHeader> byFilename = new LinkedHashMap<>();
            candidates.forEach(header -> byFilename.put(header.filename(), header));
            yield new Selection(
                answered.value().stream().map(byFilename::get).limit(MAX_MEMORIES).toList(),
                "model " + anthropic.settings().recallModel());
          }
          case ModelOutcome.Failed<List<String>> failed ->
              new Selection(
                  LexicalRanking.rank(query, candidates, tools, MAX_MEMORIES),
                  "lexical ranking (the model failed: " + failed.failure().describe() + ")");
        };
      }
    };
  }

  /**
   * The model's selection, or empty when it takes longer than the deadline. The call goes on in a
   * virtual thread of its own until its own timeout: an HTTP call blocked in a read is not
   * interrupted, and its answer is simply not waited for.
   */
  private <T> Optional<T> withinDeadline(Supplier<T> call) {
    if (modelDeadline.isEmpty()) {
      return Optional.of(call.get());
    }
    CompletableFuture<T> future = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("tmem-recall-model")
        .start(
            () -> {
              try {
                future.complete(call.get());
              } catch (RuntimeException | Error failed) {
                future.completeExceptionally(failed);
              }
            });
    try {
      return Optional.of(future.get(modelDeadline.get().toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException late) {
      return Optional.empty();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (ExecutionException failed) {
      if (failed.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("model selection failed", failed.getCause());
    }
  }

  private String rankedBy() {
    return switch (model) {
      case OfflineLanguageModel offline -> "lexical ranking (" + offline.describe() + ")";
      case AnthropicLanguageModel anthropic -> "model " + anthropic.settings().recallModel();
    };
  }

  /** Reads a memory for surfacing; empty when it vanished or cannot be read since the scan. */
  private Optional<RecalledMemory> read(MemoryHeader header) {
    String text;
    try {
      // Only the start can be shown (MAX_LINES, MAX_BYTES); a larger file is cut whatever it holds.
      text = TextFiles.head(header.file(), SHOWN_AT_MOST_BYTES).text();
    } catch (IOException unreadable) {
      return Optional.empty();
    }
    Cut cut = cut(text);
    String content =
        cut.truncated()
            ? cut.text()
                + "\n\n> This memory file was truncated ("
                + (cut.byBytes() ? MAX_BYTES + " byte limit" : "first " + MAX_LINES + " lines")
                + "). Use the Read tool to view the complete file at: "
                + header.file()
            : cut.text();
    long ageDays = ageDays(header.modified());
    return Optional.of(
        new RecalledMemory(
            header.file(),
            header.filename(),
            header.modified(),
            ageDays,
            header(header.file(), ageDays),
            content,
            cut.truncated()));
  }

  private record Cut(String text, boolean byLines, boolean byBytes) {
    boolean truncated() {
      return byLines || byBytes;
    }
  }

  /**
   * The first lines that fit both limits; a cut never splits a line unless one line alone is too
   * long.
   */
  static Cut cut(String text) {
    String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    String[] lines = body.split("\n", -1);
    boolean byLines = lines.length > MAX_LINES;
    StringBuilder kept = new StringBuilder();
    long bytes = 0;
    boolean byBytes = false;
    int limit = Math.min(lines.length, MAX_LINES);
    for (int i = 0; i < limit; i++) {
      long lineBytes = RecallSessions.utf8Length(lines[i]) + (i == 0 ? 0 : 1);
      if (bytes + lineBytes > MAX_BYTES) {
        byBytes = true;
        if (i == 0) {
          kept.append(prefixWithin(lines[0], MAX_BYTES));
        }
        break;
      }
      if (i > 0) {
        kept.append('\n');
      }
      kept.append(lines[i]);
      bytes += lineBytes;
    }
    return new Cut(kept.toString(), byLines, byBytes);
  }

  private static String prefixWithin(String line, int maxBytes) {
    long bytes = 0;
    int end = 0;
    while (end < line.length()) {
      int codePoint = line.codePointAt(end);
      long size = RecallSessions.utf8Length(new String(Character.toChars(codePoint)));
      if (bytes + size > maxBytes) {
        break;
      }
      bytes += size;
      end += Character.charCount(codePoint);
    }
    return line.substring(0, end);
  }

  private long ageDays(Instant modified) {
    return Math.max(0, Math.floorDiv(clock.millis() - modified.toEpochMilli(), DAY_MILLIS));
  }

  /** The reference's header: a staleness warning for memories older than a day, else their age. */
  static String header(Path file, long ageDays) {
    if (ageDays > 1) {
      return "This memory is "
          + ageDays
          + " days old. Memories are point-in-time observations, not live state — claims about code"
          + " behavior or file:line citations may be outdated. Verify against current code before"
          + " asserting as fact.\n\nMemory: "
          + file
          + ":";
    }
    String age = ageDays == 0 ? "today" : "yesterday";
    return "Memory (saved " + age + "): " + file + ":";
  }
}
