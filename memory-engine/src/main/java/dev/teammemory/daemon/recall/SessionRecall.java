package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.LanguageModel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Recall in a project, as {@code tmem recall}, the prompt hook and the local API ask for it. With a
 * session, what the session was shown is kept in {@code <state>/recall/<session id>.json}, so every
 * caller shares the "not shown before" rule and the 60 KiB budget of that session; both start
 * afresh after a compaction. Memories the agent already read in the session are not offered, and a
 * one-word prompt gets nothing.
 */
public final class SessionRecall {

  private final ClaudeLayout layout;
  private final LanguageModel model;
  private final Clock clock;
  private final Optional<Duration> modelDeadline;

  public SessionRecall(ClaudeLayout layout, LanguageModel model, Clock clock) {
    this(layout, model, clock, Optional.empty());
  }

  private SessionRecall(
      ClaudeLayout layout, LanguageModel model, Clock clock, Optional<Duration> modelDeadline) {
    this.layout = requireNonNull(layout, "layout is null");
    this.model = requireNonNull(model, "model is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.modelDeadline = requireNonNull(modelDeadline, "modelDeadline is null");
  }

  /**
   * This recall with the model's choice bounded in time: on a path someone waits on (the prompt
   * hook), lexical ranking answers when the model is slower than {@code deadline}.
   */
  public SessionRecall withModelDeadline(Duration deadline) {
    requireNonNull(deadline, "deadline is null");
    return new SessionRecall(layout, model, clock, Optional.of(deadline));
  }

  /**
   * The memories relevant to {@code query} in the project {@code inProject} works in. The session's
   * transcript, when it is where the agent keeps it, tells which files the agent already read and
   * which compaction the session is in.
   *
   * @param session the session whose record is used and kept; without one nothing is remembered
   * @param tools tools the agent is using, whose usage notes are not worth surfacing
   * @throws IllegalArgumentException when the session id is not one
   */
  public RecallReport recall(
      Environment inProject, String query, Optional<String> session, List<String> tools)
      throws IOException {
    session.ifPresent(ClaudeLayout::checkSessionId);
    return recall(
        inProject,
        query,
        session,
        tools,
        session.map(id -> layout.transcript(inProject.workingDirectory(), id)));
  }

  /**
   * As {@link #recall(Environment, String, Optional, List)}, with the session's transcript given.
   *
   * @param transcript the session's transcript; empty, or a file that does not exist, when unknown
   */
  public RecallReport recall(
      Environment inProject,
      String query,
      Optional<String> session,
      List<String> tools,
      Optional<Path> transcript)
      throws IOException {
    requireNonNull(query, "query is null");
    requireNonNull(transcript, "transcript is null");
    session.ifPresent(ClaudeLayout::checkSessionId);
    MemoryLocation location = MemoryLocation.resolve(inProject);
    if (!location.enabled()) {
      return RecallReport.memoryOff(query, location);
    }
    if (isOneWord(query)) {
      return RecallReport.of(
          query,
          new RecallResult(List.of(), "nothing (one word is too little to go on)", 0, 0, false),
          location);
    }
    SessionContext context =
        transcript.isPresent() ? SessionContext.of(transcript.get()) : SessionContext.UNKNOWN;
    RecallSessions sessions = new RecallSessions(layout.stateHome());
    SurfacedMemories surfaced =
        session.isPresent()
            ? sessions.load(session.get(), context.compaction())
            : SurfacedMemories.NONE;
    RecallResult result =
        new Recall(model, clock, modelDeadline)
            .recall(
                location.directory(),
                query,
                tools.stream().map(String::strip).filter(tool -> !tool.isEmpty()).toList(),
                surfaced,
                context.readFiles());
    if (session.isPresent() && !result.memories().isEmpty()) {
      sessions.save(session.get(), surfaced.plus(result.memories()), context.compaction());
    }
    return RecallReport.of(query, result, location);
  }

  /**
   * A prompt of one word says too little to pick memories by, as the reference holds: no whitespace
   * in it. Chinese, Japanese and Korean are written without spaces, so there a run of three or more
   * of their characters counts as more than a word.
   */
  static boolean isOneWord(String query) {
    String text = query.strip();
    if (text.chars().anyMatch(Character::isWhitespace)) {
      return false;
    }
    int run = 0;
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i);
      run = LexicalRanking.isIdeographic(codePoint) ? run + 1 : 0;
      if (run >= 3) {
        return false;
      }
      i += Character.charCount(codePoint);
    }
    return true;
  }
}
