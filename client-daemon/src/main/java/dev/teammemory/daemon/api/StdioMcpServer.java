package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code tmem mcp}: the tools of {@link McpTools} served over stdio by the official MCP Java SDK,
 * which negotiates the protocol version (a version it does not know is answered with its latest)
 * and frames the JSON-RPC messages. Bound to the project it was started in.
 */
final class StdioMcpServer {

  /**
   * The SDK's own log: its warnings only. Held here, since java.util.logging keeps loggers weakly;
   * its chattier levels would put what clients send on stderr.
   */
  static final Logger SDK_LOG = quiet(Logger.getLogger("io.modelcontextprotocol"));

  private static Logger quiet(Logger logger) {
    logger.setLevel(Level.WARNING);
    return logger;
  }

  private final McpTools tools;
  private final String version;

  StdioMcpServer(McpTools tools, String version) {
    this.tools = requireNonNull(tools, "tools is null");
    this.version = requireNonNull(version, "version is null");
  }

  /** Serves until the input ends. */
  void serve(InputStream in, OutputStream out) throws InterruptedException {
    requireNonNull(SDK_LOG, "SDK_LOG is null");
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched =
        new FilterInputStream(in) {
          @Override
          public int read() throws IOException {
            return ended(super.read());
          }

          @Override
          public int read(byte[] buffer, int offset, int length) throws IOException {
            return ended(super.read(buffer, offset, length));
          }

          private int ended(int read) {
            if (read < 0) {
              ended.countDown();
            }
            return read;
          }
        };
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(
            new JacksonMcpJsonMapper(MemoryServices.JSON), watched, out);
    McpSyncServer server =
        McpServer.sync(transport)
            .serverInfo("tmem", version)
            .instructions(McpTools.INSTRUCTIONS)
            // McpTools checks every argument itself and answers in its own words.
            .validateToolInputs(false)
            .capabilities(
                McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
            .tools(
                tools.tools().stream()
                    .map(
                        tool ->
                            new McpServerFeatures.SyncToolSpecification(
                                tool,
                                (exchange, request) ->
                                    tools.call(request.name(), request.arguments())))
                    .toList())
            .resources(
                tools.resources().stream()
                    .map(
                        resource ->
                            new McpServerFeatures.SyncResourceSpecification(
                                resource, (exchange, request) -> tools.readResource(request.uri())))
                    .toList())
            .build();
    try {
      ended.await();
    } finally {
      server.closeGracefully();
    }
  }
}
