package dev.teammemory.daemon.agent;

import dev.teammemory.daemon.dream.Dream;
import dev.teammemory.daemon.dream.DreamOutcome;
import dev.teammemory.daemon.extract.Extraction;
import dev.teammemory.daemon.extract.ExtractionOutcome;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.notes.SessionNotes;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/** The Stop hook's work: the session notes when due, extraction, consolidation when due. */
final class AfterTurn {

  private static final Logger LOG = Logger.getLogger(AfterTurn.class.getName());

  private AfterTurn() {}

  /**
   * Does the turn's work, each part whatever became of the one before.
   *
   * @param project the environment as seen from the agent's working directory
   * @param layout where the session notes are
   * @return problems for the person; empty when all went well
   */
  static List<String> run(
      Environment project,
      ClaudeLayout layout,
      HookInput input,
      Path transcript,
      LanguageModel model,
      Clock clock)
      throws IOException {
    List<String> problems = new ArrayList<>();
    Optional<Path> notesFile = AgentHooks.notesFile(layout, input);
    if (notesFile.isPresent()) {
      try {
        new SessionNotes(layout, model, clock).update(transcript, notesFile.get(), false);
      } catch (IOException failed) {
        problems.add("the session notes could not be updated: " + FailureWords.describe(failed));
      }
    }
    try {
      ExtractionOutcome outcome = Extraction.afterTurn(project, model, clock, transcript);
      if (outcome instanceof ExtractionOutcome.Failed failed) {
        problems.add("memory extraction failed: " + failed.reason());
      }
    } catch (IOException failed) {
      problems.add("memory extraction failed: " + FailureWords.describe(failed));
    }
    problems.addAll(consolidateIfDue(project, model, clock, input.sessionId()));
    return problems;
  }

  /** Runs the dream when due; returns problems for the user, never throws for them. */
  private static List<String> consolidateIfDue(
      Environment project, LanguageModel model, Clock clock, Optional<String> sessionId) {
    Dream dream =
        new Dream(
            ClaudeLayout.of(project), model, clock, SecretGuard.withDefaultRules(), LOG::fine);
    try {
      DreamOutcome outcome = dream.run(Dream.Request.automatic(project, sessionId, () -> false));
      return outcome instanceof DreamOutcome.Failed failed
          ? List.of(
              "memory consolidation failed: "
                  + failed.reason()
                  + " (tmem dream --status has the details)")
          : List.of();
    } catch (IOException failed) {
      return List.of("memory consolidation could not run (" + FailureWords.describe(failed) + ")");
    }
  }
}
