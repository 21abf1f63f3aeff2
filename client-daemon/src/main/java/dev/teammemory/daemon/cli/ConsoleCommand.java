package dev.teammemory.daemon.cli;

import dev.teammemory.daemon.command.ExitCode;
import dev.teammemory.daemon.command.ProjectOptions;
import dev.teammemory.daemon.command.UserError;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import dev.teammemory.daemon.login.ServerConnection;
import dev.teammemory.daemon.sync.Project;
import dev.teammemory.protocol.ConsoleSignInCode;
import dev.teammemory.protocol.client.Response;
import dev.teammemory.protocol.client.TeamMemoryClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tmem console}: opens the current project's team memory in the server's console, signed in
 * as the token this machine holds, through a single-use link the server mints (the token never goes
 * into a URL, a browser's history or a log).
 */
@Command(
    name = "console",
    mixinStandardHelpOptions = true,
    description =
        "Opens the current project's team memory in the server's console in your browser, signed"
            + " in (a single-use link that expires in minutes).")
public final class ConsoleCommand implements Callable<Integer> {

  @Spec CommandSpec spec;
  @Mixin ProjectOptions projects;

  @Option(
      names = "--print",
      description = "Print the single-use link instead of opening a browser.")
  boolean print;

  private final Environment environment;

  public ConsoleCommand() {
    this(Environment.system());
  }

  public ConsoleCommand(Environment environment) {
    this.environment = environment;
  }

  @Override
  public Integer call() throws IOException {
    Project project =
        CurrentProject.of(
            projects, StateHome.of(environment), environment.workingDirectory().toAbsolutePath());
    ServerConnection connection =
        ServerConnection.fromEnvironment(environment.variables()).requireToken();
    String link;
    try (TeamMemoryClient client = connection.client()) {
      link =
          switch (client.consoleSignInCode(project.repo())) {
            case Response.Ok<ConsoleSignInCode> ok -> connection.serverUrl() + ok.body().path();
            case Response.Unauthorized<ConsoleSignInCode> unauthorized ->
                throw UserError.problem(
                    "the server rejected the token (401): run `tmem login` or set TMEM_TOKEN");
            case Response.NotFound<ConsoleSignInCode> notFound ->
                throw UserError.problem(
                    project.repo()
                        + " has no team memory on "
                        + connection.serverUrl()
                        + ", or you cannot see it, or the server has no console (404)");
            case Response.TransportFailure<ConsoleSignInCode> failure ->
                throw UserError.problem(
                    "cannot reach " + connection.serverUrl() + ": " + failure.reason());
            default ->
                throw UserError.problem(
                    "the server did not open a console session for " + project.repo());
          };
    }
    PrintWriter out = spec.commandLine().getOut();
    if (print || !opened(link, environment.variables())) {
      out.println("Open this link within two minutes (it works once): " + link);
    } else {
      out.println("Opened the console for " + project.repo() + " in your browser.");
    }
    return ExitCode.OK;
  }

  /** Hands the link to the desktop's browser; false when there is none to hand it to. */
  private static boolean opened(String link, Map<String, String> variables) {
    String system = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    List<String> command =
        system.contains("mac")
            ? List.of("open", link)
            : system.contains("win")
                ? List.of("rundll32", "url.dll,FileProtocolHandler", link)
                : List.of("xdg-open", link);
    if (!system.contains("mac")
        && !system.contains("win")
        && variables.get("DISPLAY") == null
        && variables.get("WAYLAND_DISPLAY") == null) {
      return false; // a terminal without a desktop (ssh): print the link instead
    }
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
