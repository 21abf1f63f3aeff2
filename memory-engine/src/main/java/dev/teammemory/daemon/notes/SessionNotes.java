package dev.teammemory.daemon.notes;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.TextFiles;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.AgentOutcome;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps a session's notes ({@code summary.md}) up to date from its transcript. An update happens
 * when the thresholds say so ({@link NotesTrigger}) or when forced; one update of a notes file runs
 * at a time, across threads and processes. The file is created 0600 in a 0700 folder from the
 * template, and its section headers and descriptions never change: a model's edits that would
 * change them are undone. Without a model, or when the model fails, the notes are written from the
 * transcript itself.
 */
public final class SessionNotes {

  private static final Set<PosixFilePermission> FILE_PERMISSIONS =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> FOLDER_PERMISSIONS =
      PosixFilePermissions.fromString("rwx------");
  private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  private final ClaudeLayout layout;
  private final LanguageModel model;
  private final Clock clock;
  private final NotesProgressStore progressStore;

  public SessionNotes(ClaudeLayout layout, LanguageModel model, Clock clock) {
    this.layout = requireNonNull(layout, "layout is null");
    this.model = requireNonNull(model, "model is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.progressStore = new NotesProgressStore(layout.stateHome());
  }

  /**
   * The notes path of a transcript: beside it when it is at its usual place under the config home;
   * otherwise the session's own path, from the working directory and session id it records.
   */
  public static Path notesFor(ClaudeLayout layout, Path transcriptFile, Transcript transcript) {
    Path file = transcriptFile.toAbsolutePath().normalize();
    Path projects = layout.projectsDirectory();
    boolean usualPlace = file.getParent() != null && projects.equals(file.getParent().getParent());
    if (!usualPlace) {
      Optional<String> cwd =
          transcript.entries().stream().flatMap(entry -> entry.cwd().stream()).findFirst();
      Optional<String> session = transcript.sessionId();
      if (cwd.isPresent() && session.isPresent()) {
        try {
          return layout.sessionNotes(Path.of(cwd.get()), session.get());
        } catch (IllegalArgumentException unusableSessionId) {
          // Falls back to the place beside the transcript.
        }
      }
    }
    return ClaudeLayout.sessionNotesBeside(file);
  }

  /** Where the notes at {@code notes} stand. */
  public NotesProgress progress(Path notes) {
    return progressStore.load(notes.toAbsolutePath().normalize());
  }

  /** Session notes and their template are a few kilobytes; far larger is not worth reading. */
  public static final int MAX_BYTES = 4 * 1024 * 1024;

  /**
   * Notes (or a notes template) as the agent reads them: bytes that are not UTF-8 become U+FFFD;
   * empty when the file does not exist.
   *
   * @throws IOException when it cannot be read, is not a file, or is over {@value #MAX_BYTES} bytes
   */
  public static Optional<String> read(Path file) throws IOException {
    return TextFiles.readIfPresent(file, MAX_BYTES);
  }

  /**
   * Updates the notes from the transcript if the thresholds are met, or regardless with {@code
   * force}.
   *
   * @throws IOException when the transcript or the notes cannot be read or written
   */
  public NotesOutcome update(Path transcriptFile, Path notesFile, boolean force)
      throws IOException {
    Path notes = notesFile.toAbsolutePath().normalize();
    Transcript transcript = Transcript.read(transcriptFile);
    List<TranscriptEntry> context = transcript.currentContext();
    long tokens = Tokens.estimate(context);
    if (context.isEmpty()) {
      // Forced or not, there is nothing to write notes about.
      return force
          ? new NotesOutcome.Failed(notes, transcript.whyNoMessages())
          : new NotesOutcome.NotDue(notes, tokens, transcript.whyNoMessages());
    }
    NotesProgress progress = progressStore.load(notes);
    NotesTrigger.Decision decision = NotesTrigger.decide(context, tokens, progress);
    if (decision instanceof NotesTrigger.Decision.NotDue notDue && !force) {
      if (notDue.progress().initialized() != progress.initialized()) {
        progressStore.save(notes, notDue.progress());
      }
      return new NotesOutcome.NotDue(notes, tokens, notDue.reason());
    }
    ReentrantLock lock = LOCKS.computeIfAbsent(notes, key -> new ReentrantLock());
    if (!lock.tryLock()) {
      return new NotesOutcome.Busy(notes);
    }
    try {
      Files.createDirectories(progressStore.directory());
      try (FileChannel channel =
              FileChannel.open(
                  progressStore.lockFile(notes),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          FileLock processLock = tryLock(channel)) {
        if (processLock == null) {
          return new NotesOutcome.Busy(notes);
        }
        return write(transcript, context, tokens, decision.progress(), notes);
      }
    } finally {
      lock.unlock();
    }
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException heldInThisProcess) {
      return null;
    }
  }

  private NotesOutcome write(
      Transcript transcript,
      List<TranscriptEntry> context,
      long tokens,
      NotesProgress progress,
      Path notes)
      throws IOException {
    NotesTemplate template = NotesTemplate.load(layout);
    createIfMissing(notes, template.template());
    String before = TextFiles.read(notes, MAX_BYTES);
    String writer;
    switch (model) {
      case OfflineLanguageModel offline -> {
        replace(notes, checked(before, OfflineNotes.write(before, transcript)));
        writer = "offline";
      }
      case AnthropicLanguageModel anthropic -> {
        AgentOutcome outcome = ModelNotes.update(anthropic, context, before, notes, template);
        String after = TextFiles.read(notes, MAX_BYTES);
        if (!NotesDocument.parse(after)
            .structure()
            .equals(NotesDocument.parse(before).structure())) {
          replace(notes, before);
          return new NotesOutcome.Failed(
              notes,
              "the model changed section headers or descriptions; the previous notes were kept");
        }
        switch (outcome) {
          case AgentOutcome.Failed failed -> {
            // The notes must exist and help even when the model cannot be reached.
            replace(notes, checked(after, OfflineNotes.write(after, transcript)));
            writer = "offline (the model failed: " + failed.failure().describe() + ")";
          }
          case AgentOutcome.Finished finished ->
              writer = "model " + anthropic.settings().model() + edits(finished);
          case AgentOutcome.TurnLimitReached limit ->
              writer = "model " + anthropic.settings().model() + edits(limit);
        }
      }
    }
    Optional<String> last = context.getLast().uuid();
    Optional<String> summarized =
        NotesTrigger.hasToolCallsInLastAssistantTurn(context) || last.isEmpty()
            ? progress.lastSummarizedMessage()
            : last;
    progressStore.save(
        notes,
        new NotesProgress(
            true,
            tokens,
            last.or(progress::lastUpdateMessage),
            summarized,
            Optional.of(clock.instant())));
    return new NotesOutcome.Updated(notes, tokens, writer, summarized);
  }

  private static String edits(AgentOutcome outcome) {
    long edits =
        outcome.toolCalls().stream().filter(call -> call.allowed() && !call.isError()).count();
    long denied = outcome.toolCalls().stream().filter(call -> !call.allowed()).count();
    return " ("
        + edits
        + (edits == 1 ? " edit" : " edits")
        + (denied > 0 ? ", " + denied + " refused" : "")
        + ")";
  }

  /** The offline writer only rewrites bodies; a changed structure would be a bug, never written. */
  private static String checked(String before, String after) {
    if (!NotesDocument.parse(after).structure().equals(NotesDocument.parse(before).structure())) {
      throw new IllegalStateException("the offline notes writer changed the notes' structure");
    }
    return after;
  }

  private static boolean posix(Path path) {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
        && path.getFileSystem().equals(FileSystems.getDefault());
  }

  /** Creates the folder 0700 and the file 0600 with the template, as the reference does. */
  static void createIfMissing(Path notes, String template) throws IOException {
    Path folder = notes.getParent();
    if (posix(notes)) {
      if (!Files.isDirectory(folder)) {
        Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(FOLDER_PERMISSIONS));
        Files.setPosixFilePermissions(folder, FOLDER_PERMISSIONS);
      }
    } else {
      Files.createDirectories(folder);
    }
    if (!Files.exists(notes, LinkOption.NOFOLLOW_LINKS)
        && AtomicFiles.create(notes, template.getBytes(StandardCharsets.UTF_8), FILE_PERMISSIONS)) {
      return;
    }
    if (Files.isRegularFile(notes) && Files.size(notes) == 0) {
      // Notes are never empty (they start as the template): an empty file is one an earlier
      // version left half made, and it would never be filled again.
      replace(notes, template);
    }
  }

  /** Replaces the notes in one step, so a reader never sees half a file; the copy is 0600 too. */
  private static void replace(Path notes, String content) throws IOException {
    AtomicFiles.write(notes, content.getBytes(StandardCharsets.UTF_8), FILE_PERMISSIONS);
  }
}
