package dev.teammemory.daemon.login;

import static dev.teammemory.daemon.login.FakeGitHub.TOKEN;
import static dev.teammemory.daemon.login.FakeGitHub.granted;
import static dev.teammemory.daemon.testing.SyncFixture.entries;
import static org.assertj.core.api.Assertions.assertThat;

import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.testing.ServerProcess;
import dev.teammemory.daemon.testing.SyncFixture;
import dev.teammemory.daemon.testing.TmemCommand;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A developer's first day, end to end: the real server verifies GitHub tokens against a fake
 * GitHub, and the real {@code tmem} logs in with the device flow, registers a checkout and syncs.
 * The server's URL, given once to {@code tmem login}, is the only setting.
 */
class GitHubLoginIT {

  private static final String REPO = "acme/widgets";
  private static final String READ_ONLY_REPO = "acme/read-only";

  @TempDir Path root;
  private FakeGitHub gitHub;
  private ServerProcess server;
  private SyncFixture fixture;
  private final List<Process> processes = new ArrayList<>();

  @BeforeEach
  void startGitHubAndTheServer() throws IOException {
    gitHub = new FakeGitHub();
    server =
        ServerProcess.start(
            root.resolve("server"),
            "TMEM_AUTH_GITHUB_CLIENT_ID=" + FakeGitHub.CLIENT_ID,
            "TMEM_AUTH_GITHUB_URL=" + gitHub.serverUrl(),
            "TMEM_AUTH_GITHUB_API_URL=" + gitHub.apiUrl());
    fixture = new SyncFixture(root);
  }

  @AfterEach
  void stopEverything() throws Exception {
    for (Process process : processes) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    fixture.close();
    server.close();
    gitHub.close();
  }

  @Test
  void fromLoginToASyncedRepositoryWithOnlyTheServerUrl() throws Exception {
    gitHub.answerTokenRequestsWith(granted(TOKEN));
    gitHub.grantsWriteAccessTo(REPO);
    gitHub.grantsReadAccessTo(READ_ONLY_REPO);
    // The fake GitHub is the GitHub Enterprise host the server names, so remotes live on it.
    Path checkout = gitCheckout("git@localhost:acme/widgets.git");

    LoginRun login = login(checkout);
    assertThat(login.exitCode()).as(login.err()).isZero();
    assertThat(login.out())
        .contains("logged in to " + server.url() + " as octocat")
        // An empty repository is a 404 to anyone, so the first login cannot tell more.
        .contains("the server accepts the login; " + REPO + " has no team memory yet");

    String added = tmem("add", checkout.toString());
    Path team =
        Path.of(
            added.substring(("registered " + REPO + ": ").length(), added.indexOf(" (a running")));
    Files.createDirectories(team);
    Files.writeString(team.resolve("MEMORY.md"), "- [Build](build.md) — how we build\n");
    Files.writeString(team.resolve("build.md"), "Run ./mvnw verify before pushing.\n");
    tmem("sync");

    try (TeamMemoryClient asTheUser = fixture.client(server.url(), TOKEN)) {
      assertThat(entries(asTheUser, REPO))
          .containsEntry("build.md", "Run ./mvnw verify before pushing.\n")
          .containsKey("MEMORY.md");
    }
    List<RecordedRequest> permissionChecks = gitHub.requests("/api/v3/repos/" + REPO);
    assertThat(permissionChecks).isNotEmpty();
    assertThat(permissionChecks.getFirst().getHeaders().get("Authorization"))
        .isEqualTo("Bearer " + TOKEN);

    // A teammate (a static token here) writes; the next sync brings it down.
    try (TeamMemoryClient teammate = fixture.client(server.url(), ServerProcess.BOB)) {
      Map<String, String> update = Map.of("deploy.md", "Deploys go out on Tuesdays.\n");
      assertThat(teammate.put(REPO, update, Optional.empty())).isInstanceOf(Response.Ok.class);
    }
    tmem("sync");
    assertThat(Files.readString(team.resolve("deploy.md")))
        .isEqualTo("Deploys go out on Tuesdays.\n");

    // A repository the user may only read: the refused push's advice is GitHub's.
    Path readOnly = Files.createDirectories(root.resolve("read-only-team"));
    Files.writeString(readOnly.resolve("mine.md"), "a reader's note\n");
    String refused =
        tmemExpecting(1, "sync", "--team-dir", readOnly.toString(), "--repo", READ_ONLY_REPO);
    assertThat(refused)
        .contains(
            "no write access to "
                + READ_ONLY_REPO
                + " (403): ask a maintainer for access on GitHub, then run `tmem login` again")
        .doesNotContain(TOKEN);
  }

  @Test
  void aRepositoryGitHubHidesIsReportedWithoutLeakingWhetherItExists() throws Exception {
    gitHub.answerTokenRequestsWith(granted(TOKEN));
    Path checkout = gitCheckout("https://localhost/acme/secret-plans.git");

    LoginRun login = login(checkout);

    assertThat(login.exitCode()).as(login.err()).isZero();
    assertThat(login.out())
        .contains("acme/secret-plans has no team memory yet, or octocat cannot see it")
        .doesNotContain(TOKEN);
    assertThat(login.err()).doesNotContain("Exception");
  }

  /**
   * {@code tmem login --server URL} in the checkout, in this JVM: the device flow's five-second
   * waits are recorded, not slept.
   */
  private LoginRun login(Path checkout) {
    return LoginRun.tmem(
        new Environment(
            Map.of("XDG_STATE_HOME", root.resolve("state").toString()),
            root.resolve("home"),
            checkout),
        new RecordingSleeper(Instant.parse("2026-11-22T09:00:00Z")),
        "login",
        "--server",
        server.url());
  }

  private Path gitCheckout(String origin) throws IOException, InterruptedException {
    Path checkout = Files.createDirectories(root.resolve("src/widgets"));
    for (List<String> git :
        List.of(
            List.of("git", "init", "-q", checkout.toString()),
            List.of("git", "-C", checkout.toString(), "remote", "add", "origin", origin))) {
      assertThat(new ProcessBuilder(git).inheritIO().start().waitFor()).isZero();
    }
    return checkout;
  }

  /**
   * Runs {@code tmem} as a process with no TMEM_* settings at all (the login named the server);
   * returns its output.
   */
  private String tmem(String... arguments) throws IOException, InterruptedException {
    return tmemExpecting(0, arguments);
  }

  private String tmemExpecting(int exitCode, String... arguments)
      throws IOException, InterruptedException {
    List<String> command = TmemCommand.of(arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("TMEM_"));
    builder.environment().put("XDG_STATE_HOME", root.resolve("state").toString());
    builder.environment().put("HOME", root.resolve("home").toString());
    Process process = builder.start();
    processes.add(process);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
    assertThat(process.exitValue())
        .as("tmem %s: %s", String.join(" ", arguments), output)
        .isEqualTo(exitCode);
    return output;
  }
}
