package dev.teammemory.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class StaticTokensTest {

  private static final RepositorySlug WIDGETS = new RepositorySlug("acme", "widgets");

  @Test
  void identifiesTheUserOfEachTokenAndNoOther() {
    StaticTokens tokens =
        StaticTokens.parse(
            """
            # comment
              t1 alice * write
            t2\tbob acme/* read   # trailing comment

            """,
            "tokens.txt");

    assertThat(tokens.identify("t1")).contains(Caller.ofStaticToken("alice"));
    assertThat(tokens.identify("t2")).contains(Caller.ofStaticToken("bob"));
    assertThat(tokens.identify("t3")).isEmpty();
    assertThat(tokens.identify("T1")).isEmpty();
    assertThat(tokens.tokenCount()).isEqualTo(2);
  }

  @Test
  void permissionIsTheStrongestGrantThatMatchesTheRepository() {
    StaticTokens tokens =
        StaticTokens.parse(
            """
            t1 alice acme/* read
            t1 alice ACME/Widgets write
            t2 bob other/thing write
            """,
            "tokens.txt");

    assertThat(tokens.permission(Caller.ofStaticToken("alice"), WIDGETS))
        .isEqualTo(Permission.WRITE);
    assertThat(
            tokens.permission(Caller.ofStaticToken("alice"), new RepositorySlug("acme", "gadgets")))
        .isEqualTo(Permission.READ);
    assertThat(
            tokens.permission(Caller.ofStaticToken("alice"), new RepositorySlug("evil", "widgets")))
        .isEqualTo(Permission.NONE);
    assertThat(tokens.permission(Caller.ofStaticToken("bob"), WIDGETS)).isEqualTo(Permission.NONE);
    assertThat(tokens.permission(Caller.ofStaticToken("mallory"), WIDGETS))
        .isEqualTo(Permission.NONE);
  }

  @Test
  void reviewAndAdminAreLevelsAboveWriteThatHoldWhatIsBelowThem() {
    StaticTokens tokens =
        StaticTokens.parse(
            """
            t1 rita acme/* review
            t1 rita acme/widgets write
            t2 adam acme/widgets admin
            """,
            "tokens.txt");

    Permission reviewer = tokens.permission(Caller.ofStaticToken("rita"), WIDGETS);
    Permission admin = tokens.permission(Caller.ofStaticToken("adam"), WIDGETS);

    assertThat(reviewer).isEqualTo(Permission.REVIEW);
    assertThat(reviewer.allowsWrite()).isTrue();
    assertThat(reviewer.allowsReview()).isTrue();
    assertThat(reviewer.allowsAdministration()).isFalse();
    assertThat(admin).isEqualTo(Permission.ADMIN);
    assertThat(admin.allowsReview()).isTrue();
    assertThat(admin.allowsAdministration()).isTrue();
    assertThat(Permission.WRITE.allowsReview()).isFalse();
  }

  @Test
  void malformedLinesNameTheFileAndLineButNeverTheToken() {
    assertThatThrownBy(() -> StaticTokens.parse("\nsecret-token alice *\n", "f.txt"))
        .hasMessage(
            "static tokens file f.txt, line 2: expected 4 fields TOKEN USER REPOS ACCESS, found 3")
        .hasMessageNotContaining("secret-token");
    assertThatThrownBy(() -> StaticTokens.parse("secret-token alice * owner", "f.txt"))
        .hasMessage(
            "static tokens file f.txt, line 1: ACCESS must be read, write, review or admin, not"
                + " owner");
    assertThatThrownBy(() -> StaticTokens.parse("secret-token alice a/b/c read", "f.txt"))
        .hasMessage(
            "static tokens file f.txt, line 1: REPOS must be owner/name, owner/* or *, not a/b/c");
    assertThatThrownBy(() -> StaticTokens.parse("secret-token alice * read extra", "f.txt"))
        .hasMessageContaining("line 1: expected 4 fields");
    assertThatThrownBy(
            () -> StaticTokens.parse("secret-token alice * read\nsecret-token bob * read", "f.txt"))
        .hasMessage(
            "static tokens file f.txt, line 2: this token was given to another user on line 1")
        .hasMessageNotContaining("secret-token");
    assertThatThrownBy(
            () -> StaticTokens.parse("token-one alice * read\ntoken-two alice * write", "f.txt"))
        .hasMessage(
            "static tokens file f.txt, line 2: user alice already has another token on line 1");
  }

  @Test
  void repositorySlugFollowsGitHubsRules() {
    assertThat(RepositorySlug.parse("acme/widgets")).contains(WIDGETS);
    assertThat(RepositorySlug.parse("a-b/c.d_e-f")).isPresent();
    assertThat(RepositorySlug.parse("-a/b")).isEmpty();
    assertThat(RepositorySlug.parse("a/..")).isEmpty();
    assertThat(RepositorySlug.parse("a/...")).isPresent();
    assertThat(RepositorySlug.parse("a/b/c")).isEmpty();
    assertThat(RepositorySlug.parse("a".repeat(40) + "/b")).isEmpty();
    assertThat(RepositorySlug.parse("a/" + "b".repeat(101))).isEmpty();
    assertThat(new RepositorySlug("Acme", "Widgets").key()).isEqualTo("acme/widgets");
    assertThat(Optional.ofNullable(RepositorySlug.parse(null)).flatMap(x -> x)).isEmpty();
  }
}
