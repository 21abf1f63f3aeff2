package dev.teammemory.daemon.hook;

import dev.teammemory.daemon.dream.Dream;
import dev.teammemory.daemon.dream.DreamOutcome;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import dev.teammemory.daemon.model.LanguageModel;
import dev.teammemory.daemon.secrets.SecretGuard;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/** Work the Stop hook does after extraction: consolidation, when its gates open. */
final class AfterTurn {

  private static final Logger LOG = Logger.getLogger(AfterTurn.class.getName());

  private AfterTurn() {}

  /** Runs the dream when due; returns problems for the user, never throws for them. */
  static List<String> consolidateIfDue(
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
      return List.of(
          "memory consolidation could not run (" + failed.getClass().getSimpleName() + ")");
    }
  }
}
