package dev.teammemory.daemon.extract;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.dailylog.DailyLog;
import dev.teammemory.daemon.dailylog.DailyLogMode;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.model.AgentOutcome;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.secrets.Verdict;
import dev.teammemory.daemon.transcript.ContentBlock;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Extracts durable memories from a session after each completed turn, as the reference's background
 * extractor does:
 *
 * <ul>
 *   <li>only the messages since the last extraction are looked at, and only once the agent's turn
 *       has finished;
 *   <li>when the agent itself wrote a memory file in those messages, nothing is done: it already
 *       saved what it wanted;
 *   <li>one extraction runs per memory directory at a time, across processes; requests that arrive
 *       meanwhile are coalesced into one trailing run per session when it ends;
 *   <li>with a model, an agent behind {@link MemoryWriteGate} decides; without one, {@link
 *       OfflineExtractor} saves what is unambiguous.
 * </ul>
 */
public final class Extraction {

  private static final Set<String> WRITING_TOOLS =
      Set.of("Write", "Edit", "MultiEdit", "NotebookEdit");
  private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  /** A bound on trailing rounds, so that a steady stream of requests cannot keep one run alive. */
  private static final int MAX_TRAILING_ROUNDS = 5;

  private final ClaudeLayout layout;
  private final LanguageModel model;
  private final Clock clock;
  private final SecretGuard guard;
  private final ExtractionCursor cursors;

  public Extraction(ClaudeLayout layout, LanguageModel model, Clock clock, SecretGuard guard) {
    this.layout = requireNonNull(layout, "layout is null");
    this.model = requireNonNull(model, "model is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.guard = requireNonNull(guard, "guard is null");
    this.cursors = new ExtractionCursor(layout.stateHome());
  }

  /** Runs one extraction for the project the environment's working directory is in. */
  public static ExtractionOutcome afterTurn(
      Environment inProject, LanguageModel model, Clock clock, Path transcriptFile)
      throws IOException {
    MemoryLocation location = MemoryLocation.resolve(inProject);
    boolean dailyLog = DailyLogMode.of(inProject, location).enabled();
    return new Extraction(ClaudeLayout.of(inProject), model, clock, SecretGuard.withDefaultRules())
        .afterTurn(
            new ExtractionRequest(
                transcriptFile, location, dailyLog, inProject.workingDirectory()));
  }

  /** The file whose lock one extraction of a memory directory holds. */
  static Path lockFile(Path stateHome, Path memoryDirectory) {
    return stateHome.resolve("extract").resolve(key(memoryDirectory) + ".lock");
  }

  static Path pendingDirectory(Path stateHome, Path memoryDirectory) {
    return stateHome.resolve("extract").resolve(key(memoryDirectory) + ".pending");
  }

  /**
   * Extracts what the latest turn of the session is worth remembering, or coalesces the request
   * into the extraction that is running.
   *
   * @throws IOException when the transcript or memory cannot be read or written
   */
  public ExtractionOutcome afterTurn(ExtractionRequest request) throws IOException {
    MemoryLocation location = request.location();
    if (!location.enabled()) {
      return new ExtractionOutcome.Skipped(
          "auto memory is off (" + location.disabledBy().orElseThrow() + ")");
    }
    Path memory = location.directory().toAbsolutePath().normalize();
    ReentrantLock local = LOCKS.computeIfAbsent(memory, key -> new ReentrantLock());
    if (!local.tryLock()) {
      markPending(memory, request);
      return new ExtractionOutcome.Coalesced();
    }
    try {
      Path lockFile = lockFile(layout.stateHome(), memory);
      Files.createDirectories(lockFile.getParent());
      try (FileChannel channel =
              FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = tryLock(channel)) {
        if (lock == null) {
          markPending(memory, request);
          return new ExtractionOutcome.Coalesced();
        }
        Accumulated result = new Accumulated(once(request));
        for (int round = 0; round < MAX_TRAILING_ROUNDS; round++) {
          List<Path> pending = takePending(memory);
          if (pending.isEmpty()) {
            break;
          }
          for (Path transcript : pending) {
            result.add(
                once(
                    new ExtractionRequest(
                        transcript, location, request.dailyLog(), request.workingDirectory())));
          }
        }
        return result.outcome();
      }
    } finally {
      local.unlock();
    }
  }

  /** The outcome of a run and its trailing runs, together. */
  private static final class Accumulated {
    private ExtractionOutcome first;
    private final List<ExtractionOutcome.Change> changes = new ArrayList<>();
    private final List<ExtractionOutcome.Refusal> refusals = new ArrayList<>();
    private String writer;
    private int messages;
    private int trailing;

    Accumulated(ExtractionOutcome first) {
      this.first = first;
      take(first);
    }

    void add(ExtractionOutcome outcome) {
      trailing++;
      take(outcome);
    }

    private void take(ExtractionOutcome outcome) {
      if (outcome instanceof ExtractionOutcome.Extracted extracted) {
        writer = extracted.writer();
        messages += extracted.messages();
        changes.addAll(extracted.changes());
        refusals.addAll(extracted.refusals());
      }
    }

    ExtractionOutcome outcome() {
      if (writer == null) {
        return first;
      }
      return new ExtractionOutcome.Extracted(writer, messages, changes, refusals, trailing);
    }
  }

  private ExtractionOutcome once(ExtractionRequest request) throws IOException {
    Transcript transcript;
    try {
      transcript = Transcript.read(request.transcript());
    } catch (NoSuchFileException gone) {
      return new ExtractionOutcome.Skipped(
          "the transcript " + request.transcript() + " does not exist");
    }
    List<TranscriptEntry> messages = transcript.messages();
    Optional<String> cursor = cursors.load(request.transcript());
    int from = messages.size() - transcript.currentContext().size();
    if (cursor.isPresent()) {
      for (int i = 0; i < messages.size(); i++) {
        if (messages.get(i).uuid().equals(cursor)) {
          from = i + 1;
          break;
        }
      }
    }
    List<TranscriptEntry> range = messages.subList(Math.max(0, from), messages.size());
    if (range.isEmpty()) {
      return new ExtractionOutcome.Skipped("no new messages since the last extraction");
    }
    TranscriptEntry last = range.getLast();
    if (!last.isAssistant() || last.hasToolUse() || last.uuid().isEmpty()) {
      return new ExtractionOutcome.Skipped("the agent's turn has not finished");
    }
    if (agentWroteMemory(range, request)) {
      cursors.save(request.transcript(), last.uuid().get());
      return new ExtractionOutcome.Skipped("the agent saved memories itself in this turn");
    }
    ExtractionOutcome outcome =
        switch (model) {
          case OfflineLanguageModel offline -> offline(messages, Math.max(0, from), request);
          case AnthropicLanguageModel anthropic -> withModel(anthropic, range, request);
        };
    if (outcome instanceof ExtractionOutcome.Extracted) {
      cursors.save(request.transcript(), last.uuid().get());
    }
    return outcome;
  }

  private boolean agentWroteMemory(List<TranscriptEntry> range, ExtractionRequest request) {
    Path memory =
        MemoryWriteGate.realPath(request.location().directory().toAbsolutePath().normalize())
            .orElse(request.location().directory());
    for (TranscriptEntry message : range) {
      for (ContentBlock.ToolUse use : message.toolUses()) {
        if (!WRITING_TOOLS.contains(use.name())) {
          continue;
        }
        Optional<String> target =
            use.stringInput("file_path").or(() -> use.stringInput("notebook_path"));
        if (target.isEmpty()) {
          continue;
        }
        try {
          Path file = request.workingDirectory().resolve(target.get()).toAbsolutePath().normalize();
          if (MemoryWriteGate.realPath(file).orElse(file).startsWith(memory)) {
            return true;
          }
        } catch (InvalidPathException notAPath) {
          // A malformed path wrote nothing.
        }
      }
    }
    return false;
  }

  private ExtractionOutcome offline(
      List<TranscriptEntry> messages, int from, ExtractionRequest request) throws IOException {
    OfflineExtractor.Found found = OfflineExtractor.find(messages, from, guard);
    List<ExtractionOutcome.Change> changes = new ArrayList<>();
    List<ExtractionOutcome.Refusal> refusals = new ArrayList<>();
    found
        .refusals()
        .forEach(
            refusal ->
                refusals.add(new ExtractionOutcome.Refusal(refusal.reason(), refusal.excerpt())));
    MemoryLocation location = request.location();
    if (request.dailyLog()) {
      List<String> bullets =
          found.candidates().stream()
              .map(
                  candidate ->
                      candidate.type().wireName()
                          + ": "
                          + MemoryNaming.description(candidate.lead()))
              .toList();
      if (!bullets.isEmpty()) {
        Path log = new DailyLog(location.directory(), clock).append(bullets);
        changes.add(new ExtractionOutcome.Change(log, "appended"));
      }
    } else {
      LocalDate today = LocalDate.now(clock);
      for (Candidate candidate : found.candidates()) {
        MemoryScope scope =
            MemoryScope.route(
                Optional.of(candidate.type()), candidate.audience(), location.teamActive());
        if (scope == MemoryScope.TEAM
            && guard.check("team", candidate.text()) instanceof Verdict.Flagged flagged) {
          refusals.add(
              new ExtractionOutcome.Refusal("team memory refused it: " + flagged.describe(), ""));
          continue;
        }
        TopicFiles.Saved saved = TopicFiles.save(scope.directory(location), candidate, today);
        changes.add(
            new ExtractionOutcome.Change(
                saved.file(), saved.change().name().toLowerCase(Locale.ROOT)));
      }
    }
    return new ExtractionOutcome.Extracted(
        "offline extractor", messages.size() - from, changes, refusals, 0);
  }

  private ExtractionOutcome withModel(
      AnthropicLanguageModel anthropic, List<TranscriptEntry> range, ExtractionRequest request)
      throws IOException {
    MemoryLocation location = request.location();
    Files.createDirectories(location.directory());
    Optional<Path> dailyLog =
        request.dailyLog()
            ? Optional.of(new DailyLog(location.directory(), clock).today())
            : Optional.empty();
    MemoryWriteGate gate = new MemoryWriteGate(location.directory(), guard, dailyLog);
    AgentOutcome outcome =
        ModelExtractor.run(anthropic, range, location, dailyLog, gate, request.workingDirectory());
    List<ExtractionOutcome.Change> changes =
        gate.written().stream().map(file -> new ExtractionOutcome.Change(file, "written")).toList();
    return switch (outcome) {
      case AgentOutcome.Failed failed -> new ExtractionOutcome.Failed(failed.failure().describe());
      case AgentOutcome.Finished finished ->
          new ExtractionOutcome.Extracted(
              "model " + anthropic.settings().model(), range.size(), changes, List.of(), 0);
      case AgentOutcome.TurnLimitReached limit ->
          new ExtractionOutcome.Extracted(
              "model " + anthropic.settings().model(), range.size(), changes, List.of(), 0);
    };
  }

  private void markPending(Path memory, ExtractionRequest request) throws IOException {
    Path directory = pendingDirectory(layout.stateHome(), memory);
    // One file per session: however many turns end meanwhile, the session gets one trailing run.
    AtomicFiles.write(
        directory.resolve(key(request.transcript()) + ".request"),
        request.transcript().toString().getBytes(StandardCharsets.UTF_8));
  }

  private List<Path> takePending(Path memory) throws IOException {
    Path directory = pendingDirectory(layout.stateHome(), memory);
    List<Path> transcripts = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.request")) {
      for (Path file : files) {
        try {
          transcripts.add(Path.of(Files.readString(file, StandardCharsets.UTF_8).strip()));
        } catch (NoSuchFileException | InvalidPathException takenOrTorn) {
          continue;
        }
        Files.deleteIfExists(file);
      }
    } catch (NoSuchFileException nothingPending) {
      return List.of();
    }
    return transcripts;
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException heldInThisProcess) {
      return null;
    }
  }

  private static String key(Path path) {
    return ClaudeLayout.sanitize(path.toAbsolutePath().normalize().toString());
  }
}
