package dev.teammemory.daemon.login;

import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.sync.GitCheckout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProjectRepositoryTest {

  @TempDir Path root;

  @ParameterizedTest
  @CsvSource({
    "https://api.github.com, github.com",
    "https://api.github.com/, github.com",
    "https://api.acme.ghe.com, acme.ghe.com",
    "https://github.acme.com/api/v3, github.acme.com",
    "https://GitHub.Acme.com:8443/api/v3/, github.acme.com",
    "not a url, github.com"
  })
  void theGitHubHostComesFromTheApiUrl(String apiUrl, String host) {
    assertThat(ProjectRepository.githubHost(apiUrl)).isEqualTo(host);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://github.com/acme/widgets",
        "https://github.com/acme/widgets.git",
        "https://github.com/acme/widgets/",
        "https://github.com/acme/widgets.git/",
        "https://github.com/acme/widgets//",
        "http://github.com/acme/widgets",
        "https://octocat@github.com/acme/widgets.git",
        "https://x-access-token:ghs_abc@github.com/acme/widgets.git",
        "HTTPS://GitHub.com/acme/widgets",
        "git://github.com/acme/widgets.git",
        "ssh://git@github.com/acme/widgets",
        "ssh://git@github.com/acme/widgets.git",
        "ssh://git@github.com:22/acme/widgets.git",
        "git+ssh://git@github.com/acme/widgets.git",
        "git@github.com:acme/widgets.git",
        "git@github.com:acme/widgets",
        "git@github.com:/acme/widgets.git",
        "github.com:acme/widgets.git",
        "  git@github.com:acme/widgets.git\n"
      })
  void everyFormOfAGitHubRemoteNamesTheRepository(String remote) {
    assertThat(GitCheckout.repoOf(remote, "github.com")).contains("acme/widgets");
  }

  @ParameterizedTest
  @CsvSource({
    "git@github.acme.com:acme/widgets.git, acme/widgets",
    "ssh://git@github.acme.com/acme/widgets, acme/widgets",
    "ssh://git@github.acme.com:2222/acme/widgets.git/, acme/widgets",
    "https://github.acme.com/acme/widgets.git, acme/widgets",
    "https://GITHUB.ACME.COM/platform-team/api.v2, platform-team/api.v2",
  })
  void aGitHubEnterpriseRemoteIsMatchedOnTheServersHostOnly(String remote, String repo) {
    assertThat(GitCheckout.repoOf(remote, "github.acme.com")).contains(repo);
    assertThat(GitCheckout.repoOf(remote, "github.com")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://gitlab.com/acme/widgets.git",
        "git@bitbucket.org:acme/widgets.git",
        "https://github.com.evil.example/acme/widgets",
        "https://evil.example/github.com/acme/widgets",
        "https://github.com/acme",
        "https://github.com/acme/widgets/tree/main",
        "git@github.com:acme/../widgets.git",
        "/srv/git/widgets.git",
        "../widgets",
        ""
      })
  void anythingElseNamesNoRepository(String remote) {
    assertThat(GitCheckout.repoOf(remote, "github.com")).isEmpty();
  }

  @Test
  void theOriginOfTheCheckoutNamesTheRepository() throws Exception {
    Path checkout = Files.createDirectories(root.resolve("widgets"));
    git("init", "-q", checkout.toString());
    git(
        "-C",
        checkout.toString(),
        "remote",
        "add",
        "origin",
        "ssh://git@github.acme.com/acme/widgets.git/");
    Path nested = Files.createDirectories(checkout.resolve("src/main"));

    assertThat(ProjectRepository.detect(nested, "github.acme.com"))
        .isEqualTo(new ProjectRepository.Known("acme/widgets"));
  }

  @Test
  void aFolderOutsideAnyCheckoutSaysSo() throws Exception {
    assertThat(ProjectRepository.detect(root, "github.com"))
        .isEqualTo(new ProjectRepository.Unknown(root + " is not in a git checkout"));
  }

  @Test
  void anOriginOnAnotherHostSaysWhichHostWasExpectedWithoutItsCredentials() throws Exception {
    git("init", "-q", root.toString());
    git(
        "-C",
        root.toString(),
        "remote",
        "add",
        "origin",
        "https://ci:glpat-secret@gitlab.com/acme/widgets.git");

    assertThat(ProjectRepository.detect(root, "github.com"))
        .isEqualTo(
            new ProjectRepository.Unknown(
                "the origin of "
                    + root.toRealPath()
                    + " (https://gitlab.com/acme/widgets.git) is not a repository on github.com"));
  }

  private static void git(String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }
}
