package dev.teammemory.daemon.api;

import dev.teammemory.daemon.command.EngineCommand;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.memory.ClaudeLayout;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tmem api}: the local API for other agents, in the foreground. */
@Command(
    name = "api",
    description = {
      "Serve recall, session notes, compaction and the hooks to other agents on 127.0.0.1, until"
          + " SIGTERM or Ctrl-C: POST /v1/recall, GET /v1/notes?session=ID, POST /v1/compact,"
          + " POST /v1/hooks/<event>. tmem daemon serves the same API.",
      "Every request needs Authorization: Bearer <token>; the token is in <state>/api-token (0600)"
          + " and the address in <state>/api.json."
    },
    mixinStandardHelpOptions = true)
public final class ApiCommand extends EngineCommand {

  @Option(
      names = "--port",
      paramLabel = "N",
      defaultValue = "0",
      description = "The port (default: any free one).")
  int port;

  public ApiCommand() {
    this(Environment.system(), Clock.systemUTC());
  }

  public ApiCommand(Environment environment, Clock clock) {
    super(environment, clock);
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (port < 0 || port > 65_535) {
      throw dev.teammemory.daemon.command.UserError.usage(
          "--port must be between 0 and 65535: " + port);
    }
    Path stateHome = ClaudeLayout.of(environment).stateHome();
    LocalApi api = LocalApi.serve(environment, clock, port);
    Path address = stateHome.resolve(LocalApi.ADDRESS_FILE);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  api.close();
                  stopped.countDown();
                },
                "tmem-api-stop"));
    PrintWriter out = out();
    out.println(
        "tmem api listening on "
            + api.url()
            + " (token in "
            + ApiToken.file(stateHome)
            + ", address in "
            + address
            + ")");
    out.flush();
    stopped.await();
    return 0;
  }
}
