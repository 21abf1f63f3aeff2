package dev.teammemory.daemon.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.teammemory.secrets.SecretScanner;
import org.junit.jupiter.api.Test;

class SecretGuardTest {

  private final SecretTokens tokens = new SecretTokens(11);
  private final SecretGuard guard = SecretGuard.withDefaultRules();

  @Test
  void contentWithoutSecretsIsClean() {
    Verdict verdict = guard.check("testing/no-mocks.md", "# No mocks\n\nUse real servers.\n");

    assertThat(verdict).isEqualTo(new Verdict.Clean());
  }

  @Test
  void contentWithATokenIsFlaggedAndTheDescriptionNamesRuleAndPlaceButNotTheToken() {
    String token = tokens.githubPat();

    Verdict verdict = guard.check("MEMORY.md", "# Notes\nCI token: " + token + "\n");

    assertThat(verdict).isInstanceOf(Verdict.Flagged.class);
    Verdict.Flagged flagged = (Verdict.Flagged) verdict;
    assertThat(flagged.findings()).hasSize(1);
    assertThat(flagged.describe())
        .isEqualTo(
            "github-pat (GitHub PAT) at line 2, column 11, fingerprint "
                + flagged.findings().getFirst().fingerprint())
        .doesNotContain(token);
  }

  @Test
  void aGitleaksAllowCommentExemptsNothingAndTheVerdictSaysSo() {
    String token = tokens.githubPat();

    Verdict verdict = guard.check("notes.md", "fixture: " + token + " <!-- gitleaks:allow -->\n");

    assertThat(verdict).isInstanceOf(Verdict.Flagged.class);
    Verdict.Flagged flagged = (Verdict.Flagged) verdict;
    assertThat(flagged.markedAllowed()).isTrue();
    assertThat(flagged.summary())
        .isEqualTo("rule github-pat (a gitleaks:allow comment does not exempt team memory)");
    assertThat(flagged.describe())
        .endsWith(" (a gitleaks:allow comment does not exempt team memory)")
        .doesNotContain(token);
  }

  @Test
  void aSummaryNamesEachRuleOnceWithoutANoteWhenNoCommentWasRelied() {
    Verdict.Flagged flagged =
        (Verdict.Flagged)
            guard.check(
                "notes.md",
                tokens.githubPat() + "\n" + tokens.githubPat() + "\n" + tokens.awsAccessKeyId());

    assertThat(flagged.markedAllowed()).isFalse();
    assertThat(flagged.summary()).isEqualTo("rules aws-access-token, github-pat");
  }

  @Test
  void theGuardUsesTheScannerItIsGiven() {
    String generic = "db_password = \"Zt8q4LmW2xR9vB7nK3pJ\"";

    assertThat(new SecretGuard(SecretScanner.allRules()).check("db.md", generic))
        .isInstanceOf(Verdict.Flagged.class);
    assertThat(guard.check("db.md", generic)).isInstanceOf(Verdict.Clean.class);
  }

  @Test
  void aFlaggedVerdictNeedsFindingsAndTheGuardNeedsItsArguments() {
    assertThatThrownBy(() -> new Verdict.Flagged(java.util.List.of()))
        .hasMessage("a flagged entry needs at least one finding");
    assertThatThrownBy(() -> guard.check(null, "")).hasMessage("key is null");
    assertThatThrownBy(() -> guard.check("k", null)).hasMessage("content is null");
  }

  @Test
  void aSecretInTheKeyFlagsTheFileWithARenameAndTheCommentNoteAndTheLogMasksIt() {
    String token = tokens.githubPat();
    String key = "ci/" + token + ".md";

    Verdict verdict = guard.check(key, "# Nothing secret in here\n");

    assertThat(verdict).isInstanceOf(Verdict.Flagged.class);
    Verdict.Flagged flagged = (Verdict.Flagged) verdict;
    assertThat(flagged.inPath()).isTrue();
    assertThat(flagged.summary())
        .isEqualTo(
            "in its path, rule github-pat; rename the file to send it (a gitleaks:allow comment"
                + " does not exempt team memory)")
        .doesNotContain(token);
    assertThat(guard.redact(key)).doesNotContain(token).startsWith("ci/");
  }
}
