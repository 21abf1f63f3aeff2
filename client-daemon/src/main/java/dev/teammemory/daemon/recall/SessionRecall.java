package dev.teammemory.daemon.recall;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.memory.MemoryLocation;
import dev.teammemory.daemon.model.LanguageModel;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Recall in a project, as {@code tmem recall}, the prompt hook and the local API ask for it. With a
 * session, what the session was shown is kept in {@code <state>/recall/<session id>.json}, so every
 * caller shares the "not shown before" rule and the 60 KiB budget of that session.
 */
public final class SessionRecall {

  private final ClaudeLayout layout;
  private final LanguageModel model;
  private final Clock clock;

  public SessionRecall(ClaudeLayout layout, LanguageModel model, Clock clock) {
    this.layout = requireNonNull(layout, "layout is null");
    this.model = requireNonNull(model, "model is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * The memories relevant to {@code query} in the project {@code inProject} works in.
   *
   * @param session the session whose record is used and kept; without one nothing is remembered
   * @param tools tools the agent is using, whose usage notes are not worth surfacing
   * @throws IllegalArgumentException when the session id is not one
   */
  public RecallReport recall(
      Environment inProject, String query, Optional<String> session, List<String> tools)
      throws IOException {
    requireNonNull(query, "query is null");
    session.ifPresent(ClaudeLayout::checkSessionId);
    MemoryLocation location = MemoryLocation.resolve(inProject);
    if (!location.enabled()) {
      return RecallReport.memoryOff(query, location);
    }
    RecallSessions sessions = new RecallSessions(layout.stateHome());
    SurfacedMemories surfaced =
        session.isPresent() ? sessions.load(session.get()) : SurfacedMemories.NONE;
    RecallResult result =
        new Recall(model, clock)
            .recall(
                location.directory(),
                query,
                tools.stream().map(String::strip).filter(tool -> !tool.isEmpty()).toList(),
                surfaced);
    if (session.isPresent() && !result.memories().isEmpty()) {
      sessions.save(session.get(), surfaced.plus(result.memories()));
    }
    return RecallReport.of(query, result, location);
  }
}
