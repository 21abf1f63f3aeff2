package dev.teammemory.daemon.extract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryNamingTest {

  @Test
  void aNameIsAShortKebabCaseSlugOfTheTellingWordsKeepingANegation() {
    assertThat(MemoryNaming.slug("Use bun instead of npm.", "feedback-memory"))
        .isEqualTo("bun-not-npm");
    assertThat(MemoryNaming.slug("Don't mock the database in integration tests.", "x"))
        .isEqualTo("no-mock-database-integration");
    assertThat(MemoryNaming.slug("I'm a data scientist — mostly Python and SQL.", "x"))
        .isEqualTo("data-scientist-python-sql");
    assertThat(MemoryNaming.slug("统一用 pnpm", "feedback-memory")).isEqualTo("pnpm");
    assertThat(MemoryNaming.slug("用户是前端组的负责人", "user-memory")).isEqualTo("user-memory");
    assertThat(MemoryNaming.slug("Deploys go through deploy.example.internal/pipelines/main.", "x"))
        .hasSizeLessThanOrEqualTo(32)
        .matches("[a-z0-9]+(-[a-z0-9]+)*");
  }

  @Test
  void aDescriptionSpeaksOfTheUserAndTheTeamInTheThirdPerson() {
    assertThat(MemoryNaming.description("I'm on the SRE team and own the Terraform."))
        .isEqualTo("The user is on the SRE team and owns the Terraform");
    assertThat(MemoryNaming.description("I use podman, not docker. We deploy on Tuesdays."))
        .isEqualTo("The user uses podman, not docker. The team deploys on Tuesdays");
    assertThat(MemoryNaming.description("Never force-push without asking me first."))
        .isEqualTo("Never force-push without asking the user first");
    assertThat(MemoryNaming.description("我是前端组的负责人，平时写 React。")).isEqualTo("用户是前端组的负责人，平时写 React");
  }

  @Test
  void aLongDescriptionIsCutWhereAClauseEndsNeverInsideAPhrase() {
    String statement =
        "Integration tests in this repo always run against the Testcontainers Postgres (extend"
            + " AbstractPostgresIT) — that has been team policy since a mocked test hid a broken"
            + " migration last quarter.";

    String description = MemoryNaming.description(statement);

    assertThat(description)
        .isEqualTo(
            "Integration tests in this repo always run against the Testcontainers Postgres"
                + " (extend AbstractPostgresIT)");
    assertThat(description.length()).isLessThanOrEqualTo(MemoryNaming.MAX_DESCRIPTION);
  }

  @Test
  void wordsThatOnlyLookFirstPersonAreLeftAsTheyAre() {
    assertThat(MemoryNaming.description("Production runs in us-east-1, i.e. Virginia."))
        .isEqualTo("Production runs in us-east-1, i.e. Virginia");
    assertThat(MemoryNaming.description("Tests were flaky on the US runners and I/O bound."))
        .isEqualTo("Tests were flaky on the US runners and I/O bound");
    assertThat(MemoryNaming.description("Ask us before we merge; I'd rather review it."))
        .isEqualTo("Ask the team before the team merges; the user would rather review it");
  }
}
