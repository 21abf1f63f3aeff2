package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tmem mcp}: the memory engine as an MCP server on stdin and stdout. */
@Command(
    name = "mcp",
    description = {
      "Serve recall, notes and compact as MCP tools over stdio (JSON-RPC 2.0, one message per line),"
          + " for agents that speak the Model Context Protocol.",
      "For Claude Code: claude mcp add tmem -- java -jar /path/to/tmem.jar mcp"
    },
    mixinStandardHelpOptions = true)
public final class McpCommand implements Callable<Integer> {

  private final Environment environment;
  private final InputStream in;
  private final Clock clock;

  @Spec CommandSpec spec;

  public McpCommand() {
    this(Environment.system(), System.in, Clock.systemUTC());
  }

  public McpCommand(Environment environment, InputStream in, Clock clock) {
    this.environment = requireNonNull(environment, "environment is null");
    this.in = requireNonNull(in, "in is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public Integer call() throws IOException {
    String version = McpCommand.class.getPackage().getImplementationVersion();
    new McpServer(new MemoryServices(environment, clock), version == null ? "development" : version)
        .serve(
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)),
            spec.commandLine().getOut());
    return 0;
  }
}
