package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import dev.teammemory.daemon.files.FailureWords;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * MCP's Streamable HTTP transport on the local API ({@code POST /mcp}), stateless: each POST
 * carries one JSON-RPC message and a request is answered with one JSON body, which every Streamable
 * HTTP client accepts; there is no server-to-client stream ({@code GET} is 405). It implements the
 * SDK's {@link McpStatelessServerTransport} over the local API's own server rather than the SDK's
 * servlet transport, which would bring a servlet container into the daemon.
 *
 * <p>The local API has already checked the token. This endpoint refuses what a web page could send:
 * a {@code Host} other than the loopback address the API listens on (DNS rebinding) and an {@code
 * Origin} other than that address.
 */
final class HttpMcpEndpoint implements McpStatelessServerTransport {

  static final String PATH = "/mcp";

  /** A tool call is bounded by what it does; this only keeps a stuck one from holding a thread. */
  private static final Duration CALL_LIMIT = Duration.ofMinutes(5);

  private static final int MAX_BODY = 1024 * 1024;

  private final McpJsonMapper mapper = new JacksonMcpJsonMapper(MemoryServices.JSON);
  private final McpStatelessSyncServer server;
  private volatile McpStatelessServerHandler handler;

  HttpMcpEndpoint(McpTools tools, String version) {
    requireNonNull(tools, "tools is null");
    requireNonNull(version, "version is null");
    requireNonNull(StdioMcpServer.SDK_LOG, "SDK_LOG is null");
    this.server =
        McpServer.sync(this)
            .serverInfo("tmem", version)
            .instructions(McpTools.INSTRUCTIONS)
            // McpTools checks every argument itself and answers in its own words.
            .validateToolInputs(false)
            .requestTimeout(CALL_LIMIT)
            .capabilities(
                McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
            .tools(
                tools.tools().stream()
                    .map(
                        tool ->
                            new McpStatelessServerFeatures.SyncToolSpecification(
                                tool,
                                (context, request) ->
                                    tools.call(request.name(), request.arguments())))
                    .toList())
            // The registered projects' indexes, as the daemon starts: it serves those projects.
            .resources(
                tools.resources().stream()
                    .map(
                        resource ->
                            new McpStatelessServerFeatures.SyncResourceSpecification(
                                resource, (context, request) -> tools.readResource(request.uri())))
                    .toList())
            .build();
  }

  @Override
  public void setMcpHandler(McpStatelessServerHandler handler) {
    this.handler = requireNonNull(handler, "handler is null");
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.empty();
  }

  void shutDown() {
    server.close();
  }

  /** Whether a request's {@code Host} and {@code Origin} are the API's own loopback address. */
  static Optional<String> refusal(Optional<String> host, Optional<String> origin, int port) {
    if (host.isEmpty() || !loopback(host.get(), port)) {
      return Optional.of(
          "the Host header must be 127.0.0.1:"
              + port
              + " or localhost:"
              + port
              + ", not "
              + host.orElse("missing"));
    }
    if (origin.isPresent()) {
      URI uri;
      try {
        uri = URI.create(origin.get());
      } catch (IllegalArgumentException notAUri) {
        return Optional.of("the Origin header is not an origin: " + origin.get());
      }
      if (!"http".equals(uri.getScheme())
          || uri.getHost() == null
          || !loopback(uri.getHost() + ":" + uri.getPort(), port)) {
        return Optional.of(
            "requests from web pages are refused: Origin " + origin.get() + " is not this API's");
      }
    }
    return Optional.empty();
  }

  private static boolean loopback(String hostAndPort, int port) {
    String value = hostAndPort.toLowerCase(Locale.ROOT);
    return value.equals("127.0.0.1:" + port) || value.equals("localhost:" + port);
  }

  /** Answers one exchange on {@value #PATH}; the caller has checked the token. */
  void handle(HttpExchange exchange, int port) throws IOException {
    Optional<String> refused =
        refusal(
            Optional.ofNullable(exchange.getRequestHeaders().getFirst("Host")),
            Optional.ofNullable(exchange.getRequestHeaders().getFirst("Origin")),
            port);
    if (refused.isPresent()) {
      error(exchange, 403, "forbidden", refused.get());
      return;
    }
    if (!exchange.getRequestMethod().equals("POST")) {
      exchange.getResponseHeaders().add("Allow", "POST");
      error(
          exchange,
          405,
          "method_not_allowed",
          "MCP here is POST only: one JSON-RPC message per request, answered in the response");
      return;
    }
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readNBytes(MAX_BODY + 1);
    }
    if (body.length > MAX_BODY) {
      error(exchange, 413, "too_large", "a message is at most " + MAX_BODY + " bytes");
      return;
    }
    McpSchema.JSONRPCMessage message;
    try {
      message =
          McpSchema.deserializeJsonRpcMessage(mapper, new String(body, StandardCharsets.UTF_8));
    } catch (IOException | IllegalArgumentException notJsonRpc) {
      error(exchange, 400, "bad_request", "the body is not a JSON-RPC message");
      return;
    }
    McpStatelessServerHandler current = handler;
    switch (message) {
      case McpSchema.JSONRPCRequest request -> {
        McpSchema.JSONRPCResponse response;
        try {
          response = current.handleRequest(McpTransportContext.EMPTY, request).block(CALL_LIMIT);
        } catch (RuntimeException failed) {
          response =
              new McpSchema.JSONRPCResponse(
                  McpSchema.JSONRPC_VERSION,
                  request.id(),
                  null,
                  new McpSchema.JSONRPCResponse.JSONRPCError(
                      McpSchema.ErrorCodes.INTERNAL_ERROR,
                      request.method() + " failed: " + FailureWords.describe(failed),
                      null));
        }
        byte[] json = mapper.writeValueAsBytes(response);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, json.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(json);
        }
      }
      case McpSchema.JSONRPCNotification notification -> {
        current.handleNotification(McpTransportContext.EMPTY, notification).block(CALL_LIMIT);
        exchange.sendResponseHeaders(202, -1);
      }
      default -> exchange.sendResponseHeaders(202, -1);
    }
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    byte[] bytes =
        MemoryServices.JSON.writeValueAsBytes(
            MemoryServices.JSON.createObjectNode().put("error", code).put("message", message));
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
