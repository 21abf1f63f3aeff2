package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.teammemory.daemon.compact.HandMadeTranscript;
import dev.teammemory.daemon.memory.MemoryScope;
import dev.teammemory.daemon.memory.MemoryType;
import dev.teammemory.daemon.secrets.SecretGuard;
import dev.teammemory.daemon.transcript.Transcript;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The offline extractor on phrasings of its own, beside the judgment set the benchmark scores: each
 * kind of memory, in English and Chinese, and what it must leave alone.
 */
class OfflineExtractorTest {

  private final HandMadeTranscript transcript = new HandMadeTranscript("s1", "/work/app");

  private OfflineExtractor.Found found() {
    return OfflineExtractor.find(
        Transcript.parse(transcript.jsonl()).messages(), SecretGuard.withDefaultRules());
  }

  /** The agent tries a command, the user refuses it. */
  private void rejectedCall(String command, String refusal) {
    transcript.refusedCall(
        "toolu_" + Integer.toHexString(command.hashCode()),
        "Bash",
        Map.of("command", command),
        refusal);
  }

  @Test
  void aCorrectionAfterARejectedCallAndTheInterruptionIsHeard() {
    transcript.user("Set up the frontend.");
    rejectedCall("yarn install", HandMadeTranscript.REFUSED);
    transcript.user("No, we use pnpm here, not yarn.");
    transcript.assistant("Switching to pnpm.");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::type, Candidate::audience, Candidate::lead)
        .containsExactly(
            tuple(
                Candidate.Kind.CORRECTION,
                MemoryType.FEEDBACK,
                MemoryScope.Audience.PROJECT_WIDE,
                "We use pnpm here, not yarn."));
  }

  @Test
  void aReasonTypedIntoTheRejectionCountsAsWhatTheUserSaid() {
    transcript.user("Add a test for the cache.");
    rejectedCall(
        "npm test",
        HandMadeTranscript.refusedWithReason(
            "Never run the whole suite, it takes an hour. Use make test-fast."));
    transcript.assistant("Running make test-fast instead.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::text)
        .containsExactly(
            tuple(
                MemoryType.FEEDBACK,
                "Never run the whole suite, it takes an hour. Use make test-fast."));
  }

  @Test
  void aPlainRequestAfterARejectionIsNotAMemory() {
    transcript.user("Deploy it.");
    rejectedCall("kubectl apply -f deploy.yaml", HandMadeTranscript.REFUSED);
    transcript.user("Wait until I say so. Run the linter first.");
    transcript.assistant("Running the linter.");

    assertThat(found().candidates()).isEmpty();
  }

  @Test
  void whatTheUserSaysAboutThemselvesIsAUserMemory() {
    transcript.user(
        "I'm a mobile engineer, mostly Swift, and new to this Rails app. Where is login?");
    transcript.assistant("In app/controllers/sessions_controller.rb.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::lead)
        .containsExactly(
            tuple(
                MemoryType.USER,
                "I'm a mobile engineer, mostly Swift, and new to this Rails app."));
  }

  @Test
  void contextWithADateOrAReasonIsAProjectMemoryAndWhereThingsLiveIsAReference() {
    transcript.user("Update the invoice export.");
    transcript.assistant("Done.");
    transcript.user(
        "FYI the old billing API is switched off on 2026-06-30 when the vendor contract ends."
            + " Our runbooks live in Confluence, space OPS.");
    transcript.assistant("Noted.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::lead)
        .containsExactly(
            tuple(
                MemoryType.PROJECT,
                "The old billing API is switched off on 2026-06-30 when the vendor contract ends."),
            tuple(MemoryType.REFERENCE, "Our runbooks live in Confluence, space OPS."));
  }

  @Test
  void aReferenceOnItsOwnIsAReference() {
    transcript.user("Check the error rate.");
    transcript.assistant("It looks normal.");
    transcript.user("Errors are tracked in Datadog, dashboard checkout-errors.");
    transcript.assistant("Noted.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::audience)
        .containsExactly(tuple(MemoryType.REFERENCE, MemoryScope.Audience.UNSTATED));
  }

  @Test
  void rememberThatIsSavedAsWhatItIs() {
    transcript.user("Remember that Lena owns the search service; ask her before schema changes.");
    transcript.assistant("ok");
    transcript.user("Please remember to run the migrations before the seed script.");
    transcript.assistant("ok");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::type)
        .containsExactly(
            tuple(Candidate.Kind.REMEMBER, MemoryType.PROJECT),
            tuple(Candidate.Kind.REMEMBER, MemoryType.FEEDBACK));
  }

  @Test
  void chineseIsReadToo() {
    transcript.user("帮我看看这个接口。");
    transcript.assistant("好的。");
    transcript.user("记住：我们的接口文档都在 Notion 的 API 空间里。");
    transcript.assistant("好的。");
    transcript.user("我是后端组的工程师，主要写 Go。");
    transcript.assistant("明白。");

    assertThat(found().candidates())
        .extracting(Candidate::type)
        .containsExactly(MemoryType.REFERENCE, MemoryType.USER);
  }

  @Test
  void ordinaryRequestsQuestionsAndThanksAreNotMemories() {
    transcript.user("Fix the failing test in auth.test.ts.");
    transcript.assistant("Done.");
    transcript.user("Why do we always mock the clock in these tests?");
    transcript.assistant("To make them deterministic.");
    transcript.user("thanks!");
    transcript.assistant("You're welcome.");

    assertThat(found().candidates()).isEmpty();
    assertThat(found().refusals()).isEmpty();
  }

  @Test
  void whatMemoryMustNotHoldIsRefusedEvenWhenAskedFor() {
    transcript.user("Remember that I'm currently refactoring the auth module.");
    transcript.user("Remember that commit 3f2a9c1 was merged in the release.");
    transcript.user("Remember that the class TokenStore is defined in src/auth/store.ts.");
    transcript.user("Remember that we use pnpm, it's in CLAUDE.md.");
    transcript.assistant("ok");

    assertThat(found().candidates()).isEmpty();
    assertThat(found().refusals())
        .extracting(OfflineExtractor.Refusal::reason)
        .containsExactly(
            "ephemeral task state: it only matters to the current task",
            "git history: git log and git blame are the authority",
            "derivable from the code: reading the project gives it",
            "already in CLAUDE.md, which the agent reads every session");
  }

  @Test
  void aCorrectionThatOnlyMattersNowIsRefused() {
    transcript.user("Migrate every service.");
    transcript.assistant("Starting with billing.");
    transcript.user("No, don't touch the other services for now.");
    transcript.assistant("ok");

    assertThat(found().candidates()).isEmpty();
    assertThat(found().refusals())
        .extracting(OfflineExtractor.Refusal::reason)
        .containsExactly("ephemeral task state: it only matters to the current task");
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
  void aRememberRequestAfterACorrectionIsAMemoryOfItsOwn() {
    transcript.user("Install the dependencies.");
    transcript.assistant("Running npm install.");
    transcript.user(
        "No, use bun instead of npm. Remember that integration tests must hit a real database.");
    transcript.assistant("Switched to bun; noted the database rule.");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::lead)
        .containsExactly(
            tuple(Candidate.Kind.CORRECTION, "Use bun instead of npm."),
            tuple(Candidate.Kind.REMEMBER, "Integration tests must hit a real database."));
  }

  @Test
  void whatTheTeamDoesOrDoesNotDoIsAProjectWideRule() {
    transcript.user("Write a test for the invoice mailer.");
    transcript.assistant("I mocked the SMTP client.");
    transcript.user(
        "Hmm, we don't mock the mail server in these tests. Greenmail runs in compose.");
    transcript.assistant("Switching to Greenmail.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::audience, Candidate::text)
        .containsExactly(
            tuple(
                MemoryType.FEEDBACK,
                MemoryScope.Audience.PROJECT_WIDE,
                "Hmm, we don't mock the mail server in these tests. Greenmail runs in compose."));
  }

  @Test
  void aPlainStatementBeforeARuleJoinsItAsItsReason() {
    transcript.user("Print the payload so I can debug.");
    transcript.assistant("Added print(payload).");
    transcript.user("print output never reaches the log shipper. We have a logger for that.");
    transcript.assistant("Using the logger.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::text)
        .containsExactly(
            tuple(
                MemoryType.FEEDBACK,
                "print output never reaches the log shipper. We have a logger for that."));
  }

  @Test
  void aReplyThatOpensWithNoInAnyLanguageIsACorrectionUnlessItOnlyPicksATarget() {
    transcript.user("Build it.");
    transcript.assistant("Running mvn package.");
    transcript.user("Nein, das Projekt baut mit Gradle, Maven ist nur noch für das alte Modul da.");
    transcript.assistant("Ok.");
    transcript.user("Run the slow test.");
    transcript.assistant("Running CartTest.");
    transcript.user("No, the other one.");
    transcript.assistant("Running CheckoutTest.");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::type)
        .containsExactly(tuple(Candidate.Kind.CORRECTION, MemoryType.FEEDBACK));
    assertThat(found().candidates().getFirst().text()).contains("Gradle");
  }

  @Test
  void aBanTypedIntoARejectionIsACorrection() {
    transcript.user("Push the fix.");
    rejectedCall(
        "git push --force",
        HandMadeTranscript.refusedWithReason("no force pushes, two other people build on main."));
    transcript.assistant("Pushing without force.");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::lead)
        .containsExactly(
            tuple(Candidate.Kind.CORRECTION, "No force pushes, two other people build on main."));
  }

  @Test
  void anInstructionWithItsReasonIsARuleWhereverItStands() {
    transcript.user(
        "Add the endpoint. Prefer early returns, because nested ifs are hard to review.");
    transcript.assistant("Done.");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::type, Candidate::lead)
        .containsExactly(
            tuple(
                Candidate.Kind.RULE,
                MemoryType.FEEDBACK,
                "Prefer early returns, because nested ifs are hard to review."));
  }

  @Test
  void aRequestIsARuleOnlyWhenALessonFollowsIt() {
    transcript.user(
        "Set the cache TTL to five minutes. Longer TTLs caused stale prices in the last sale.");
    transcript.assistant("Done.");
    transcript.user("Set the timeout to 30 seconds. The runner is slow because it is shared.");
    transcript.assistant("Done.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::text)
        .containsExactly(
            tuple(
                MemoryType.FEEDBACK,
                "Set the cache TTL to five minutes. Longer TTLs caused stale prices in the last"
                    + " sale."));
  }

  @Test
  void praiseForAJudgmentCallIsKept() {
    transcript.user("Migrate the orders table.");
    transcript.assistant("I split it into an additive step and a cleanup step.");
    transcript.user("Smart move splitting it in two. Big migrations lock the table for minutes.");
    transcript.assistant("Thanks.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::audience)
        .containsExactly(tuple(MemoryType.FEEDBACK, MemoryScope.Audience.UNSTATED));
  }

  @Test
  void aNamedOwnerIsAProjectFact() {
    transcript.user("Priyanka maintains the search indexer, so loop her in on mapping changes.");
    transcript.assistant("Will do.");

    assertThat(found().candidates())
        .extracting(Candidate::type)
        .containsExactly(MemoryType.PROJECT);
  }

  @Test
  void aPlaceWhereThingsAreKeptIsAReferenceButAFileIsNot() {
    transcript.user("Release notes are tracked in Productboard, under the Mobile roadmap.");
    transcript.assistant("Noted.");
    transcript.user("Escalations go to the SRE team: post in #sre-pager.");
    transcript.assistant("Noted.");
    transcript.user("Heads up: the batch size is kept in BatchConfig.java now.");
    transcript.assistant("Noted.");

    assertThat(found().candidates())
        .extracting(Candidate::type)
        .containsExactly(MemoryType.REFERENCE, MemoryType.REFERENCE, MemoryType.PROJECT);
  }

  @Test
  void theUserDescribesThemselvesInTheirOwnWords() {
    transcript.user("I mainly do data engineering in Scala. Keep the Python explanations short.");
    transcript.assistant("Sure.");
    transcript.user("Je suis développeuse mobile, explique-moi le backend simplement.");
    transcript.assistant("D'accord.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::text)
        .containsExactly(
            tuple(
                MemoryType.USER,
                "I mainly do data engineering in Scala. Keep the Python explanations short."),
            tuple(
                MemoryType.USER,
                "Je suis développeuse mobile, explique-moi le backend simplement."));
  }

  @Test
  void aRememberToAboutTheWorkInHandIsATaskReminder() {
    transcript.user("Remember to bump the version for this before you push.");
    transcript.assistant("ok");
    transcript.user("Remember to run the linter before every commit.");
    transcript.assistant("ok");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::lead)
        .containsExactly(tuple(MemoryType.FEEDBACK, "Run the linter before every commit."));
  }

  @Test
  void rulesInOtherLanguagesAreHeard() {
    transcript.user("Mach einen Commit.");
    transcript.assistant("Commit: 'Fehler behoben'.");
    transcript.user("Wir schreiben Commit-Messages immer auf Englisch.");
    transcript.assistant("Ok.");
    transcript.user("Corre los tests.");
    transcript.assistant("Ejecutando jest.");
    transcript.user("Usa Vitest en lugar de Jest.");
    transcript.assistant("Vale.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::audience)
        .containsExactly(
            tuple(MemoryType.FEEDBACK, MemoryScope.Audience.PROJECT_WIDE),
            tuple(MemoryType.FEEDBACK, MemoryScope.Audience.UNSTATED));
  }

  @Test
  void whatTheUserSaysOfTheirOwnLapsesIsNoRule() {
    transcript.user("That works. I never remember how lookbehinds are written, thanks.");
    transcript.assistant("You're welcome.");

    assertThat(found().candidates()).isEmpty();
  }

  @Test
  void theOneToAskAndHowThingsShipAreProjectFacts() {
    transcript.user("Ines is the go-to person for the tax rules, she wrote the engine.");
    transcript.assistant("Noted.");
    transcript.user("Production deploys go out nightly from the release branch.");
    transcript.assistant("Noted.");

    assertThat(found().candidates())
        .extracting(Candidate::type)
        .containsExactly(MemoryType.PROJECT, MemoryType.PROJECT);
  }

  @Test
  void anInstructionAboutTheCodeInFrontOfTheAgentIsNoRule() {
    transcript.user("Avoid the extra lookup, since the user is already loaded above.");
    transcript.assistant("Removed it.");
    transcript.user("No uses Lodash en el frontend, porque pesa demasiado en el bundle.");
    transcript.assistant("Vale.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::lead)
        .containsExactly(
            tuple(
                MemoryType.FEEDBACK,
                "No uses Lodash en el frontend, porque pesa demasiado en el bundle."));
  }

  @Test
  void aKindOfPersonIsARole() {
    transcript.user("I'm more of an ops person, so spell out the React bits.");
    transcript.assistant("Sure.");

    assertThat(found().candidates()).extracting(Candidate::type).containsExactly(MemoryType.USER);
  }

  @Test
  void aReminderAboutALineOfCodeIsTaskState() {
    transcript.user("Don't forget the bounds check on line 40.");
    transcript.assistant("Added.");

    assertThat(found().candidates()).isEmpty();
    assertThat(found().refusals())
        .extracting(OfflineExtractor.Refusal::reason)
        .containsExactly("ephemeral task state: it only matters to the current task");
  }

  @Test
  void whatTheTeamMayNotDoAndWhoAnswersWhatAreProjectFacts() {
    transcript.user("Just so you know, we're not allowed to keep raw IPs, GDPR.");
    transcript.assistant("Noted.");
    transcript.user("Billing questions go to Oren, he's the PM for invoicing.");
    transcript.assistant("Noted.");

    assertThat(found().candidates())
        .extracting(Candidate::type)
        .containsExactly(MemoryType.PROJECT, MemoryType.PROJECT);
  }

  @Test
  void aTasteOfTheUsersOwnIsARuleButApprovalIsNot() {
    transcript.user("I like small commits, one concern each.");
    transcript.assistant("Ok.");
    transcript.user("I like how you split that.");
    transcript.assistant("Thanks.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::lead)
        .containsExactly(tuple(MemoryType.FEEDBACK, "I like small commits, one concern each."));
  }

  @Test
  void whatKindOfShopTheTeamIsIsARuleAndACompoundRoleIsARole() {
    transcript.user("We're a Kotlin shop, no new Java files please.");
    transcript.assistant("Ok.");
    transcript.user("Ich bin Frontend-Entwicklerin und kenne Gradle kaum.");
    transcript.assistant("Ok.");

    assertThat(found().candidates())
        .extracting(Candidate::type, Candidate::audience)
        .containsExactly(
            tuple(MemoryType.FEEDBACK, MemoryScope.Audience.PROJECT_WIDE),
            tuple(MemoryType.USER, MemoryScope.Audience.PERSONAL));
  }

  @Test
  void rulesWordsThatOnlyMakeARemarkAreNoRule() {
    transcript.user("Always the same flaky test, ugh. Rerun it.");
    transcript.assistant("Rerunning.");
    transcript.user("Never mind, I see it now.");
    transcript.assistant("Ok.");
    transcript.user("I'd rather the first approach you listed, go with that.");
    transcript.assistant("Going with the first.");

    assertThat(found().candidates()).isEmpty();
  }

  @Test
  void aStatedConventionIsARuleAndATeamMoveIsAProjectFact() {
    transcript.user("As a rule we log in JSON, one event per line.");
    transcript.assistant("Ok.");
    transcript.user("The whole team is migrating from Jenkins to Buildkite this spring.");
    transcript.assistant("Ok.");

    assertThat(found().candidates())
        .extracting(Candidate::type)
        .containsExactly(MemoryType.FEEDBACK, MemoryType.PROJECT);
  }

  @Test
  void aRuleOverAWholeClassOfWorkAndPraiseForHowItWasDoneAreFeedback() {
    transcript.user("Upgrade the lint config.");
    transcript.assistant("Upgraded eslint.");
    transcript.user("Ping me before touching any CI workflow, the deploy keys live there.");
    transcript.assistant("Will do.");
    transcript.user("Split the store.");
    transcript.assistant("One slice per feature now.");
    transcript.user("Yes, that's exactly how I want state organised.");
    transcript.assistant("Good.");

    assertThat(found().candidates())
        .extracting(Candidate::kind, Candidate::type)
        .containsExactly(
            tuple(Candidate.Kind.RULE, MemoryType.FEEDBACK),
            tuple(Candidate.Kind.CORRECTION, MemoryType.FEEDBACK));
  }

  @Test
  void howLongTheyHaveBeenHereSaysWhoTheUserIs() {
    transcript.user("Keep in mind I'm a junior, I joined two weeks ago.");
    transcript.assistant("Noted.");

    assertThat(found().candidates()).extracting(Candidate::type).containsExactly(MemoryType.USER);
  }
}
