package dev.teammemory.daemon.login;

import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tmem logout}: deletes the stored login for a server. */
@Command(
    name = "logout",
    mixinStandardHelpOptions = true,
    description = "Deletes the GitHub login `tmem login` stored for a team-memory server.")
public final class LogoutCommand extends EngineCommand {

  @Option(
      names = "--server",
      paramLabel = "URL",
      description =
          "The team-memory server (default: TMEM_SERVER_URL, else the one server you are logged in"
              + " to).")
  String server;

  public LogoutCommand() {
    this(Environment.system());
  }

  public LogoutCommand(Environment environment) {
    super(environment, Clock.systemUTC());
  }

  @Override
  public Integer call() {
    CredentialStore store = new CredentialStore(StateHome.of(environment.variables()));
    Optional<String> named = namedServer();
    String serverUrl;
    if (named.isPresent()) {
      serverUrl = named.get();
    } else {
      List<Credential> logins = storedLogins(store);
      if (logins.isEmpty()) {
        out().println("not logged in to any server: nothing to delete");
        warnIfTokenSet();
        return ExitCode.OK;
      }
      if (logins.size() > 1) {
        throw UserError.usage(
            "you are logged in to several servers ("
                + String.join(", ", logins.stream().map(Credential::server).toList())
                + "): pass --server URL with the one to log out of");
      }
      serverUrl = logins.getFirst().server();
    }
    Optional<Credential> removed;
    try {
      removed = store.remove(serverUrl);
    } catch (IOException e) {
      throw UserError.problem(
          "cannot update "
              + store.file()
              + ": "
              + e.getMessage()
              + "; delete the file to log out of every server");
    }
    PrintWriter out = out();
    if (removed.isEmpty()) {
      out.println("not logged in to " + serverUrl + ": nothing to delete");
    } else {
      out.println(
          "logged out of "
              + serverUrl
              + " (was "
              + removed.get().githubLogin()
              + "): the stored token is deleted. It stays valid on GitHub until it expires or you"
              + " revoke the app under Settings → Applications");
    }
    warnIfTokenSet();
    return ExitCode.OK;
  }

  /** {@code --server}, else {@code TMEM_SERVER_URL}; empty when neither names a server. */
  private Optional<String> namedServer() {
    boolean unnamed =
        server == null
            && environment.get("TMEM_SERVER_URL").filter(url -> !url.isBlank()).isEmpty();
    return unnamed
        ? Optional.empty()
        : Optional.of(ServerUrl.resolve(server, environment.variables()));
  }

  private static List<Credential> storedLogins(CredentialStore store) {
    try {
      return store.all();
    } catch (IOException e) {
      throw UserError.problem(
          "cannot read "
              + store.file()
              + ": "
              + e.getMessage()
              + "; pass --server URL, or delete the file to log out of every server");
    }
  }

  private void warnIfTokenSet() {
    if (environment.get("TMEM_TOKEN").isPresent()) {
      spec.commandLine()
          .getErr()
          .println("tmem: warning: TMEM_TOKEN is still set and is used until you unset it");
    }
  }
}
