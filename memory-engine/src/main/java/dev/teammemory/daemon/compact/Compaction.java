package dev.teammemory.daemon.compact;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.AnthropicLanguageModel;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.model.OfflineLanguageModel;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.transcript.Tokens;
import dev.teammemory.daemon.transcript.Transcript;
import dev.teammemory.daemon.transcript.TranscriptEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compacts a session's conversation the way the reference does, cheapest level first:
 *
 * <ol>
 *   <li>the session notes replace everything up to the last message they cover, and the recent
 *       messages stay verbatim ({@link KeptMessages}); no model call;
 *   <li>when the notes are missing, still the bare template, the marker is not in the conversation,
 *       or the result would still be over the threshold: a full nine-section summary, by the model
 *       or, offline, from the notes and the transcript;
 *   <li>when the model says even that request is too long: the same after dropping the oldest API
 *       rounds, up to three times.
 * </ol>
 *
 * Afterwards the most recently read files are read again (a file too large for that is named, to be
 * read again when needed), kept messages stay exactly as written, images included, and the
 * session's title and tags are written again at the end, where the agent looks for them. Images and
 * documents become placeholders only in what a summarizing model is shown. Nothing is written to
 * the transcript: the result is returned for the caller (the command prints it).
 */
public final class Compaction {

  private static final List<String> SESSION_METADATA = List.of("custom-title", "tag");

  private final ClaudeLayout layout;
  private final LanguageModel model;
  private final Clock clock;
  private final CircuitBreaker breaker;

  public Compaction(ClaudeLayout layout, LanguageModel model, Clock clock) {
    this.layout = requireNonNull(layout, "layout is null");
    this.model = requireNonNull(model, "model is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.breaker = new CircuitBreaker(layout.stateHome());
  }

  /**
   * Compacts the transcript in the request.
   *
   * @throws IOException when the transcript or the notes cannot be read
   */
  public CompactionOutcome compact(CompactionRequest request) throws IOException {
    Path transcriptFile = request.transcript();
    Transcript transcript = Transcript.read(transcriptFile);
    TranscriptLines lines = TranscriptLines.read(transcriptFile);
    List<TranscriptEntry> context = transcript.currentContext();
    long preTokens = Tokens.estimate(context);
    long threshold = request.limits().autoCompactThreshold();
    if (request.automatic()) {
      int failures = breaker.consecutiveFailures(transcriptFile);
      if (failures >= CircuitBreaker.MAX_CONSECUTIVE_FAILURES) {
        return new CompactionOutcome.CircuitOpen(failures);
      }
      if (preTokens < threshold) {
        return new CompactionOutcome.NotNeeded(preTokens, threshold);
      }
    }
    if (context.isEmpty()) {
      return failed(request, transcript.whyNoMessages(), List.of());
    }
    Path notesFile =
        request.notes().orElseGet(() -> SessionNotes.notesFor(layout, transcriptFile, transcript));
    Optional<String> notes = readIfPresent(notesFile);
    Optional<String> marker =
        request
            .lastSummarized()
            .or(
                () ->
                    new SessionNotes(layout, model, clock)
                        .progress(notesFile)
                        .lastSummarizedMessage());
    Path workingDirectory =
        transcript.cwd().map(Path::of).filter(Path::isAbsolute).orElse(transcriptFile.getParent());
    Session session =
        new Session(
            request, transcriptFile, lines, context, preTokens, threshold, workingDirectory);

    List<String> fallbacks = new ArrayList<>();
    Attempt fromNotes =
        request.instructions().isPresent()
            ? new Attempt.FallBack("instructions for the summary need a full summary")
            : fromNotes(session, notesFile, notes, marker);
    switch (fromNotes) {
      case Attempt.Done done -> {
        breaker.recordSuccess(transcriptFile);
        return done.compacted();
      }
      case Attempt.FallBack fallBack ->
          fallbacks.add("level 1 (session notes): " + fallBack.reason());
    }
    Optional<String> usableNotes =
        notes.filter(text -> !NotesForCompaction.isTemplateOnly(text, customTemplate()));
    return switch (model) {
      case OfflineLanguageModel offline -> {
        String summary = OfflineSummary.summarize(context, usableNotes);
        breaker.recordSuccess(transcriptFile);
        yield assemble(
            session,
            CompactionOutcome.Level.SUMMARY,
            "offline summary (" + offline.reason() + ")",
            summary,
            List.of(),
            0,
            fallbacks);
      }
      case AnthropicLanguageModel anthropic -> {
        ModelSummary.Outcome outcome =
            ModelSummary.summarize(
                anthropic,
                context,
                request.limits().summaryMaxTokens(),
                additionalInstructions(request, notesFile, usableNotes));
        yield switch (outcome) {
          case ModelSummary.Outcome.Summarized summarized -> {
            breaker.recordSuccess(transcriptFile);
            yield assemble(
                session,
                summarized.promptTooLongRetries() > 0
                    ? CompactionOutcome.Level.TRUNCATED_SUMMARY
                    : CompactionOutcome.Level.SUMMARY,
                "model " + anthropic.settings().model(),
                summarized.summary(),
                List.of(),
                summarized.promptTooLongRetries(),
                fallbacks);
          }
          case ModelSummary.Outcome.Failed failed ->
              failed(request, "level 2 (model summary): " + failed.reason(), fallbacks);
        };
      }
    };
  }

  /** What one compaction works on. */
  private record Session(
      CompactionRequest request,
      Path transcriptFile,
      TranscriptLines lines,
      List<TranscriptEntry> context,
      long preTokens,
      long threshold,
      Path workingDirectory) {}

  private sealed interface Attempt {
    record Done(CompactionOutcome.Compacted compacted) implements Attempt {}

    record FallBack(String reason) implements Attempt {}
  }

  private Attempt fromNotes(
      Session session, Path notesFile, Optional<String> notes, Optional<String> marker) {
    if (notes.isEmpty()) {
      return new Attempt.FallBack("there are no session notes at " + notesFile);
    }
    if (NotesForCompaction.isTemplateOnly(notes.get(), customTemplate())) {
      return new Attempt.FallBack(
          "the session notes at " + notesFile + " are still the empty template");
    }
    List<TranscriptEntry> context = session.context();
    int start;
    if (marker.isPresent()) {
      int lastSummarized = -1;
      for (int i = 0; i < context.size(); i++) {
        if (context.get(i).uuid().equals(marker)) {
          lastSummarized = i;
          break;
        }
      }
      if (lastSummarized < 0) {
        return new Attempt.FallBack(
            "the last summarized message "
                + marker.get()
                + " is not in the conversation since the last compaction");
      }
      start = KeptMessages.start(context, lastSummarized);
    } else {
      // A resumed session: the notes exist but nobody recorded what they cover. As the reference
      // does, they stand in for everything, and the window widens back from the end.
      start = KeptMessages.start(context, context.size() - 1);
    }
    List<TranscriptEntry> kept = context.subList(start, context.size());
    Optional<String> orphan = KeptMessages.orphanToolResult(kept);
    if (orphan.isPresent()) {
      return new Attempt.FallBack(
          "a kept tool_result (" + orphan.get() + ") would lose its tool_use");
    }
    NotesForCompaction forCompaction = NotesForCompaction.of(notes.get());
    String summary =
        forCompaction.truncated()
            ? forCompaction.text()
                + "\n\nSome session memory sections were truncated for length. The full session memory"
                + " can be viewed at: "
                + notesFile
            : forCompaction.text();
    CompactionOutcome.Compacted compacted =
        assemble(
            session,
            CompactionOutcome.Level.SESSION_NOTES,
            "session notes",
            summary,
            kept,
            0,
            List.of());
    if (compacted.postTokens() >= session.threshold()) {
      return new Attempt.FallBack(
          "the compacted conversation would still be ~"
              + compacted.postTokens()
              + " tokens, not below the threshold of "
              + session.threshold());
    }
    return new Attempt.Done(compacted);
  }

  private CompactionOutcome.Compacted assemble(
      Session session,
      CompactionOutcome.Level level,
      String writer,
      String summary,
      List<TranscriptEntry> kept,
      int promptTooLongRetries,
      List<String> fallbacks) {
    List<TranscriptEntry> context = session.context();
    TranscriptLines lines = session.lines();
    ObjectNode latest =
        lines
            .line(context.getLast().lineNumber())
            .orElseGet(TranscriptLines.JSON::createObjectNode);
    TranscriptShapes shapes = new TranscriptShapes(latest, clock.instant());
    List<ObjectNode> output = new ArrayList<>();
    ObjectNode boundary =
        shapes.boundary(
            context.getLast().uuid().orElse(null),
            session.request().trigger(),
            session.preTokens());
    output.add(boundary);
    String summaryText =
        SummaryPrompt.summaryMessage(
            summary,
            session.transcriptFile().toString(),
            !kept.isEmpty(),
            level == CompactionOutcome.Level.SESSION_NOTES || session.request().automatic());
    output.add(shapes.summary(boundary.path("uuid").asText(), summaryText));
    for (TranscriptEntry message : kept) {
      ObjectNode raw = lines.line(message.lineNumber()).orElseThrow();
      // One straight chain: entries the agent links through (progress, attachments, system
      // notices) are not kept, so each kept message hangs from the one before it.
      raw.put("parentUuid", output.getLast().path("uuid").asText());
      output.add(raw);
    }
    List<RestoredFiles.RestoredFile> restored =
        RestoredFiles.restore(context, kept, session.workingDirectory());
    for (RestoredFiles.RestoredFile file : restored) {
      output.add(shapes.restoredFile(output.getLast().path("uuid").asText(), file));
    }
    output.addAll(lines.latestOfTypes(SESSION_METADATA));
    List<String> jsonLines = output.stream().map(ObjectNode::toString).toList();
    long postTokens = Tokens.rough(Transcript.parse(String.join("\n", jsonLines)).currentContext());
    return new CompactionOutcome.Compacted(
        level,
        writer,
        session.request().trigger(),
        session.preTokens(),
        postTokens,
        session.threshold(),
        kept.size(),
        promptTooLongRetries,
        fallbacks,
        restored.stream().map(RestoredFiles.RestoredFile::path).toList(),
        jsonLines);
  }

  /**
   * What the model is told beyond the nine sections: the session notes (which the PreCompact hook
   * hands the agent's own compaction in the same way) and the user's instructions.
   */
  private Optional<String> additionalInstructions(
      CompactionRequest request, Path notesFile, Optional<String> usableNotes) {
    List<String> parts = new ArrayList<>();
    usableNotes
        .flatMap(text -> CompactionInstructions.fromNotes(text, notesFile, customTemplate()))
        .ifPresent(parts::add);
    request.instructions().ifPresent(parts::add);
    return parts.isEmpty() ? Optional.empty() : Optional.of(String.join("\n\n", parts));
  }

  private CompactionOutcome failed(CompactionRequest request, String reason, List<String> fallbacks)
      throws IOException {
    int failures =
        request.automatic()
            ? breaker.recordFailure(request.transcript())
            : breaker.consecutiveFailures(request.transcript());
    return new CompactionOutcome.Failed(reason, fallbacks, failures);
  }

  private Optional<String> customTemplate() {
    return readIfPresentQuietly(layout.sessionMemoryConfig().resolve("template.md"));
  }

  private static Optional<String> readIfPresent(Path file) throws IOException {
    return SessionNotes.read(file);
  }

  private static Optional<String> readIfPresentQuietly(Path file) {
    try {
      return readIfPresent(file);
    } catch (IOException unreadable) {
      // An unreadable custom template cannot be compared against; the structural check remains.
      return Optional.empty();
    }
  }
}
