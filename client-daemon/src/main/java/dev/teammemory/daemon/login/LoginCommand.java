package dev.teammemory.daemon.login;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.sync.RepoSlug;
import dev.teammemory.protocol.AuthConfig;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import okhttp3.HttpUrl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tmem login}: logs in to a team-memory server with GitHub's device flow and stores the
 * token, one login per server (the server checks access per repository).
 */
@Command(
    name = "login",
    mixinStandardHelpOptions = true,
    description = {
      "Logs in to a team-memory server with your GitHub account.",
      "GitHub's device flow: you enter a one-time code in your browser. The token is stored,"
          + " readable only by you, in credentials.json in the daemon's state folder:",
      // A line of its own, so that no wrapping ever breaks the path.
      "  $XDG_STATE_HOME/tmem, by default ~/.local/state/tmem",
      "One login serves every repository on that server. TMEM_TOKEN, when set, overrides it."
    })
public final class LoginCommand extends EngineCommand {

  private final Sleeper sleeper;

  @Option(
      names = "--server",
      paramLabel = "URL",
      description = "The team-memory server (default: TMEM_SERVER_URL).")
  String server;

  @Option(
      names = "--repo",
      paramLabel = "owner/name",
      description =
          "The repository to check your access to (default: from the origin remote of the current"
              + " folder's git checkout).")
  String repo;

  @Option(
      names = "--github-host",
      paramLabel = "HOST",
      description =
          "The host of GitHub remotes, e.g. github.example.com (default: from the server's GitHub"
              + " API URL; github.com for api.github.com).")
  String githubHost;

  public LoginCommand() {
    this(Environment.system(), Sleeper.system(), Clock.systemUTC());
  }

  LoginCommand(Environment environment, Sleeper sleeper, Clock clock) {
    super(environment, clock);
    this.sleeper = requireNonNull(sleeper, "sleeper is null");
  }

  @Override
  public Integer call() {
    String serverUrl = ServerUrl.resolve(server, environment.variables());
    if (repo != null && !RepoSlug.isValid(repo)) {
      throw UserError.usage("--repo must be owner/name (a GitHub repository): " + repo);
    }
    PrintWriter out = out();
    PrintWriter err = err();
    AuthConfig.GitHub github = discover(serverUrl);
    ProjectRepository repository =
        repo != null
            ? new ProjectRepository.Known(repo)
            : ProjectRepository.detect(
                environment.workingDirectory(),
                githubHost != null
                    ? githubHost.strip()
                    : ProjectRepository.githubHost(github.apiUrl()));
    TokenGrant grant;
    String login;
    try (GitHubOAuth oauth = new GitHubOAuth(ServerConnection.userAgent())) {
      grant = new DeviceFlow(oauth, sleeper, clock).authorise(github, err);
      login =
          switch (oauth.user(github.apiUrl(), grant.accessToken())) {
            case GitHubOAuth.UserAnswer.Found found -> found.login();
            case GitHubOAuth.UserAnswer.BadCredentials badCredentials ->
                throw UserError.problem(
                    "GitHub rejected the new token (401 Bad credentials at "
                        + ServerUrl.normalise(github.apiUrl())
                        + "/user): it was revoked, or the server's GitHub API URL does not belong"
                        + " to the GitHub that issued it; nothing was stored. Run `tmem login`"
                        + " again, or ask your admin to check the server's GitHub settings");
            case GitHubOAuth.UserAnswer.Failed failed ->
                throw UserError.problem(
                    "could not ask GitHub whose token this is: "
                        + failed.reason()
                        + "; nothing was stored. Run `tmem login` again");
          };
    }
    List<String> checks = checkWithServer(serverUrl, login, grant.accessToken(), repository);
    CredentialStore store = new CredentialStore(StateHome.of(environment.variables()));
    try {
      store.save(
          Credential.issued(
              serverUrl, login, grant, clock.instant(), github.clientId(), github.tokenUrl()));
    } catch (IOException e) {
      throw UserError.problem(
          "logged in as "
              + login
              + " but could not store the token in "
              + store.file()
              + ": "
              + e.getMessage());
    }
    out.println("logged in to " + serverUrl + " as " + login);
    checks.forEach(out::println);
    out.println("token stored in " + store.file() + " (readable only by you)");
    List<String> missing = new ArrayList<>(github.scopes());
    missing.removeAll(grant.scopes());
    if (!grant.scopes().isEmpty() && !missing.isEmpty()) {
      err.println(
          "tmem: warning: GitHub did not grant the scope(s) "
              + String.join(", ", missing)
              + ", so the server may not see your private repositories");
    }
    if (environment.get("TMEM_TOKEN").isPresent()) {
      err.println(
          "tmem: warning: TMEM_TOKEN is set and is used instead of this login until you unset it");
    }
    return ExitCode.OK;
  }

  /** Where to log in, from the server's auth discovery endpoint. */
  private static AuthConfig.GitHub discover(String serverUrl) {
    Response<AuthConfig> answer;
    try (TeamMemoryClient client =
        new TeamMemoryClient(serverUrl, () -> "", ServerConnection.userAgent())) {
      answer = client.authConfig();
    }
    AuthConfig.GitHub github =
        switch (answer) {
          case Response.Ok<AuthConfig> ok -> ok.body().github();
          case Response.NotFound<AuthConfig> notFound ->
              throw UserError.usage(
                  "the server at "
                      + serverUrl
                      + " does not offer GitHub login; ask your admin for a token and set"
                      + " TMEM_TOKEN");
          case Response.TransportFailure<AuthConfig> failure ->
              throw UserError.problem(
                  "cannot reach the team-memory server at "
                      + serverUrl
                      + ": "
                      + failure.reason()
                      + "; check the URL and your network");
          default ->
              throw UserError.problem(
                  "the server at "
                      + serverUrl
                      + " did not say where to log in (GET /api/auth/config gave no configuration); ask"
                      + " your admin");
        };
    for (String url : List.of(github.deviceCodeUrl(), github.tokenUrl(), github.apiUrl())) {
      if (HttpUrl.parse(url) == null) {
        throw UserError.problem(
            "the server at "
                + serverUrl
                + " names a GitHub endpoint that is not an http(s) URL ("
                + url
                + "); ask your admin to fix its GitHub settings");
      }
    }
    return github;
  }

  /**
   * Asks our server whether it accepts the token. The server has no "who am I" endpoint, and
   * GitHub's {@code /user} has already named the login, so what is left to learn is whether this
   * server takes the token. The cheapest request that needs one is the hashes probe of a
   * repository: {@code 401} means the server rejects the token (it may trust another GitHub), so
   * the login is not stored; any other answer means it accepted the token, and also tells whether
   * the login can read the project's repository. Without a known repository there is nothing to
   * probe without making up a repository name, so the output says so instead.
   */
  private static List<String> checkWithServer(
      String serverUrl, String login, String token, ProjectRepository repository) {
    if (!(repository instanceof ProjectRepository.Known known)) {
      return List.of(
          "access not checked: "
              + ((ProjectRepository.Unknown) repository).why()
              + "; pass --repo owner/name to check your access to a repository");
    }
    String slug = known.slug();
    Response<?> answer;
    try (TeamMemoryClient client =
        new TeamMemoryClient(serverUrl, () -> token, ServerConnection.userAgent())) {
      answer = client.fetchHashes(slug);
    }
    return switch (answer) {
      case Response.Unauthorized<?> unauthorized ->
          throw UserError.problem(
              "GitHub knows you as "
                  + login
                  + ", but the server at "
                  + serverUrl
                  + " rejects the token (401); nothing was stored. Ask your admin whether the"
                  + " server trusts the GitHub it sent you to");
      case Response.Ok<?> ok ->
          List.of("the server accepts the login: " + login + " can read " + slug);
      case Response.NotFound<?> notFound ->
          List.of(
              "the server accepts the login; "
                  + slug
                  + " has no team memory yet, or "
                  + login
                  + " cannot see it");
      case Response.Rejected<?> rejected ->
          List.of(
              rejected.status() == 403
                  ? "the server accepts the login, but "
                      + login
                      + " may not read "
                      + slug
                      + " (403): ask for access to the repository on GitHub"
                  : "the server accepts the login; reading "
                      + slug
                      + " answered "
                      + rejected.status());
      case Response.TransportFailure<?> failure ->
          List.of("could not check the login with the server: " + failure.reason());
      case Response.NotModified<?> notModified -> List.of("the server accepts the login");
      case Response.Conflict<?> conflict -> List.of("the server accepts the login");
      case Response.TooManyEntries<?> tooMany -> List.of("the server accepts the login");
    };
  }
}
