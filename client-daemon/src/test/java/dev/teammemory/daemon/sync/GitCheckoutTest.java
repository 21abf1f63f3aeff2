package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GitCheckoutTest {

  @ParameterizedTest
  @CsvSource({
    "https://github.com/acme/widgets.git, acme/widgets",
    "https://github.com/acme/widgets, acme/widgets",
    "https://github.com/acme/widgets/, acme/widgets",
    "https://user@github.com/acme/widgets.git, acme/widgets",
    "git@github.com:acme/widgets.git, acme/widgets",
    "git@github.com:acme/widgets, acme/widgets",
    "ssh://git@github.com/acme/widgets.git, acme/widgets",
    "ssh://git@github.com:22/acme/widgets, acme/widgets",
    "git://github.com/acme/my.repo.git, acme/my.repo",
  })
  void gitHubRemotesInEveryFormGiveOwnerSlashName(String url, String repo) {
    assertThat(GitCheckout.repoOf(url)).contains(repo);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://gitlab.com/acme/widgets.git",
        "https://github.com/acme",
        "https://github.com/acme/widgets/tree/main",
        "/srv/git/widgets.git",
        "git@github.com:acme/../widgets.git"
      })
  void otherRemotesGiveNothing(String url) {
    assertThat(GitCheckout.repoOf(url)).isEmpty();
  }
}
