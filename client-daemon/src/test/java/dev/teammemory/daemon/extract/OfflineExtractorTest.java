package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.transcript.Transcript;
import org.junit.jupiter.api.Test;

class OfflineExtractorTest {

  private final HandMadeTranscript transcript = new HandMadeTranscript("s1", "/work/app");

  private OfflineExtractor.Found found() {
    return OfflineExtractor.find(
        Transcript.parse(transcript.jsonl()).messages(), SecretGuard.withDefaultRules());
  }

  @Test
  void anExplicitRememberRequestBecomesAFeedbackMemory() {
    transcript.user("Please remember that integration tests must hit a real database.");
    transcript.assistant("Noted.");

    assertThat(found().candidates())
        .containsExactly(
            new Candidate(
                Candidate.Kind.REMEMBER,
                MemoryType.FEEDBACK,
                MemoryScope.Audience.UNSTATED,
                "Integration tests must hit a real database.",
                "the user asked for this to be remembered"));
  }

  @Test
  void aCorrectionOfTheAgentBecomesAFeedbackMemory() {
    transcript.user("Install the dependencies.");
    transcript.assistant("Running npm install.");
    transcript.user("No, use bun instead of npm.");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::rule)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Candidate.Kind.CORRECTION, "Use bun instead of npm."));
  }

  @Test
  void aNegativeCorrectionKeepsItsNegation() {
    transcript.assistant("I mocked the database in the new test.");
    transcript.user("Don't mock the database in tests. We got burned by that.");

    assertThat(found().candidates())
        .extracting(Candidate::rule)
        .containsExactly("Don't mock the database in tests.");
  }

  @Test
  void aStatedPreferenceBecomesAMemoryAndWhoItIsForIsRead() {
    transcript.user("I prefer small commits with one change each.");
    transcript.assistant("ok");
    transcript.user("In this repo we always use conventional commit messages.");

    assertThat(found().candidates())
        .extracting(Candidate::audience)
        .containsExactly(MemoryScope.Audience.PERSONAL, MemoryScope.Audience.PROJECT_WIDE);
  }

  @Test
  void ordinaryRequestsAndQuestionsAreNotMemories() {
    transcript.user("Fix the failing test in auth.test.ts.");
    transcript.assistant("Done.");
    transcript.user("What does the refresh function return?");

    assertThat(found().candidates()).isEmpty();
    assertThat(found().refusals()).isEmpty();
  }

  @Test
  void whatMemoryMustNotHoldIsRefusedEvenWhenAskedFor() {
    transcript.user("Remember that I'm currently refactoring the auth module.");
    transcript.user("Remember that commit 3f2a9c1 was merged in the release.");
    transcript.user("Remember that the class TokenStore is defined in src/auth/store.ts.");
    transcript.assistant("ok");

    assertThat(found().candidates()).isEmpty();
    assertThat(found().refusals())
        .extracting(OfflineExtractor.Refusal::reason)
        .containsExactly(
            "ephemeral task state: it only matters to the current task",
            "git history: git log and git blame are the authority",
            "derivable from the code: reading the project gives it");
  }

  @Test
  void aSecretIsRefusedWithoutRepeatingIt() {
    String token = MemoryWriteGateTest.githubToken();
    transcript.user("Remember my token is " + token);
    transcript.assistant("I will not store that.");

    OfflineExtractor.Found found = found();
    assertThat(found.candidates()).isEmpty();
    assertThat(found.refusals())
        .containsExactly(
            new OfflineExtractor.Refusal(
                "looks like a secret (github-pat); secrets are never saved", ""));
  }

  @Test
  void aRequestAboutTheUserIsAUserMemory() {
    transcript.user("Remember that I'm a backend engineer new to React.");
    transcript.assistant("ok");

    assertThat(found().candidates()).extracting(Candidate::type).containsExactly(MemoryType.USER);
  }
}
