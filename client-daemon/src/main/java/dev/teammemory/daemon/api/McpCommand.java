package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import dev.teammemory.daemon.home.Environment;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code tmem mcp}: the project's memory as an MCP server on stdin and stdout ({@link
 * StdioMcpServer}). Stdout carries protocol messages only.
 */
@Command(
    name = "mcp",
    description = {
      "Serve the project's memory as MCP tools over stdio (the official MCP Java SDK):"
          + " memory_search, memory_read, memory_list, memory_save, memory_delete, recall, notes"
          + " and compact, and the team and private MEMORY.md as resources. Bound to the project"
          + " it is started in.",
      "For Codex, tmem hook install --agent codex registers it; for other agents, see"
          + " docs/agents.md.",
      "For Claude Code: claude mcp add tmem -- java -jar /path/to/tmem.jar mcp"
    },
    mixinStandardHelpOptions = true)
public final class McpCommand implements Callable<Integer> {

  private final Environment environment;
  private final InputStream in;
  private final Clock clock;
  private final OutputStream out;

  public McpCommand() {
    this(Environment.system(), System.in, System.out, Clock.systemUTC());
  }

  public McpCommand(Environment environment, InputStream in, OutputStream out, Clock clock) {
    this.environment = requireNonNull(environment, "environment is null");
    this.in = requireNonNull(in, "in is null");
    this.out = requireNonNull(out, "out is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public Integer call() throws InterruptedException {
    String version = McpCommand.class.getPackage().getImplementationVersion();
    new StdioMcpServer(
            new McpTools(environment, clock, McpTools.Binding.STARTED_IN),
            version == null ? "development" : version)
        .serve(in, out);
    return 0;
  }
}
