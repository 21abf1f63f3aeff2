package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.teammemory.daemon.files.AtomicFiles;
import dev.teammemory.daemon.files.FailureWords;
import dev.teammemory.daemon.home.Environment;
import dev.teammemory.daemon.home.StateHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The local API for other agents, on loopback only: {@code POST /v1/recall}, {@code GET
 * /v1/notes?session=ID[&cwd=DIR]} and {@code POST /v1/compact}, each answering JSON, and {@code
 * POST /v1/hooks/<event>} for the hook shim, answering what the hook prints, and {@code POST /mcp},
 * MCP's Streamable HTTP transport ({@link HttpMcpEndpoint}). Every request needs {@code
 * Authorization: Bearer <token>} with the token from {@code <state>/api-token}. Errors are {@code
 * {"error": code, "message": …}} with 400, 401, 404, 405, 413 or 500.
 *
 * <p>Threads: the JDK's server thread accepts; each exchange gets a virtual thread, so one long
 * compaction does not stop a recall and connections stuck half-way through a request stall nothing.
 */
public final class LocalApi implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LocalApi.class.getName());
  private static final int MAX_BODY = 1024 * 1024;
  private static final String HOOKS_PATH = "/v1/hooks/";

  /** Where a running API says where it listens: {@code {"url": …, "pid": …, "tokenFile": …}}. */
  public static final String ADDRESS_FILE = "api.json";

  /**
   * The token as a curl config line ({@code header = "Authorization: Bearer …"}), 0600: the hook
   * shim hands it to curl with {@code -K}, so the token never appears in a process's arguments.
   */
  public static final String CURL_CONFIG_FILE = "api.curl";

  private final HttpServer server;
  private final ExecutorService handlers;
  private final MemoryServices services;
  private final HookAnswers hooks;
  private final ApiToken token;
  private final HttpMcpEndpoint mcp;
  private Optional<Path> published = Optional.empty();

  private LocalApi(
      HttpServer server,
      ExecutorService handlers,
      MemoryServices services,
      HookAnswers hooks,
      ApiToken token) {
    this.server = server;
    this.handlers = handlers;
    this.services = services;
    this.hooks = hooks;
    this.token = token;
    this.mcp =
        new HttpMcpEndpoint(
            new McpTools(services.environment(), services.clock(), McpTools.Binding.PER_CALL),
            version());
  }

  private static String version() {
    String version = LocalApi.class.getPackage().getImplementationVersion();
    return version == null ? "development" : version;
  }

  /**
   * Starts serving on 127.0.0.1.
   *
   * @param port the port, or 0 for any free one
   */
  static LocalApi start(int port, MemoryServices services, HookAnswers hooks, ApiToken token)
      throws IOException {
    requireNonNull(services, "services is null");
    requireNonNull(hooks, "hooks is null");
    requireNonNull(token, "token is null");
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
    // A virtual thread per exchange: the JDK's server reads a request's headers on the executor,
    // so with a fixed pool a few connections that stop half-way through their headers took every
    // thread and stalled the API until they gave up.
    ExecutorService handlers =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("tmem-api-", 0).factory());
    LocalApi api = new LocalApi(server, handlers, services, hooks, token);
    server.createContext("/", api::handle);
    server.setExecutor(handlers);
    server.start();
    return api;
  }

  /**
   * Starts the API for {@code environment}'s state home and says where it listens in {@value
   * #ADDRESS_FILE} (which {@link #close()} removes again, unless another API has published since)
   * and how to authenticate in {@value #CURL_CONFIG_FILE} (which stays: the token does not change).
   *
   * @param port the port, or 0 for any free one
   */
  public static LocalApi serve(Environment environment, Clock clock, int port) throws IOException {
    Path stateHome = StateHome.of(environment);
    ApiToken token = ApiToken.loadOrCreate(stateHome);
    LocalApi api =
        start(
            port,
            new MemoryServices(environment, clock),
            new HookAnswers(environment, clock),
            token);
    try {
      api.publish(stateHome);
    } catch (IOException | RuntimeException unpublished) {
      api.close();
      throw unpublished;
    }
    return api;
  }

  private void publish(Path stateHome) throws IOException {
    String json =
        MemoryServices.JSON
            .createObjectNode()
            .put("url", url())
            .put("pid", ProcessHandle.current().pid())
            .put("tokenFile", ApiToken.file(stateHome).toString())
            .toString();
    writePrivate(stateHome.resolve(CURL_CONFIG_FILE), token.curlConfig());
    writePrivate(stateHome.resolve(ADDRESS_FILE), json + "\n");
    published = Optional.of(stateHome);
  }

  private static void writePrivate(Path file, String text) throws IOException {
    AtomicFiles.write(
        file, text.getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rw-------"));
  }

  /** Removes the address, unless another API has published its own since. */
  private void unpublish() {
    if (published.isEmpty()) {
      return;
    }
    Path address = published.get().resolve(ADDRESS_FILE);
    try {
      if (Files.readString(address, StandardCharsets.UTF_8).contains("\"url\":\"" + url() + "\"")) {
        Files.deleteIfExists(address);
      }
    } catch (IOException alreadyGone) {
      // A stale address names a port nobody answers on; the shim then runs tmem itself.
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public String url() {
    return "http://127.0.0.1:" + port();
  }

  @Override
  public void close() {
    unpublish();
    server.stop(1);
    handlers.shutdownNow();
    mcp.shutDown();
    hooks.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    // Closed in finally, not by try-with-resources: the catch blocks still answer on it.
    try {
      if (!token.authorizes(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer");
        error(
            exchange,
            401,
            "unauthorized",
            "send Authorization: Bearer <the token in <state>/api-token>");
        return;
      }
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (path.equals(HttpMcpEndpoint.PATH)) {
        mcp.handle(exchange, port());
        return;
      }
      switch (path) {
        case "/v1/recall" -> {
          if (expect(exchange, method, "POST")) {
            Optional<JsonNode> body = body(exchange);
            if (body.isPresent()) {
              respond(exchange, 200, services.recall(body.get()));
            }
          }
        }
        case "/v1/compact" -> {
          if (expect(exchange, method, "POST")) {
            Optional<JsonNode> body = body(exchange);
            if (body.isPresent()) {
              respond(exchange, 200, services.compact(body.get()));
            }
          }
        }
        case "/v1/notes" -> {
          if (expect(exchange, method, "GET")) {
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            String session = query.get("session");
            if (session == null) {
              error(exchange, 400, "bad_request", "the query parameter session is required");
              return;
            }
            Optional<ObjectNode> notes =
                services.notes(session, Optional.ofNullable(query.get("cwd")));
            if (notes.isEmpty()) {
              error(exchange, 404, "not_found", "session " + session + " has no notes yet");
            } else {
              respond(exchange, 200, notes.get());
            }
          }
        }
        default -> {
          if (path.startsWith(HOOKS_PATH)) {
            if (expect(exchange, method, "POST")) {
              hook(exchange, path.substring(HOOKS_PATH.length()));
            }
            return;
          }
          error(
              exchange,
              404,
              "not_found",
              "no endpoint "
                  + path
                  + "; there are /v1/recall, /v1/notes, /v1/compact and /v1/hooks/<event>");
        }
      }
    } catch (MemoryServices.BadRequest bad) {
      error(exchange, 400, "bad_request", bad.getMessage());
    } catch (IOException | RuntimeException failure) {
      // Never the request body (it may hold a prompt): the failure in words names at most a file.
      String words = FailureWords.describe(failure);
      LOG.log(
          Level.WARNING, "local API: " + exchange.getRequestURI().getPath() + " failed: " + words);
      error(exchange, 500, "internal_error", words);
    } finally {
      exchange.close();
    }
  }

  /**
   * {@code POST /v1/hooks/<event>[?private-index=true][?agent=codex]}: the hook's stdin as the body
   * (Codex's when {@code agent=codex}), answered with what {@code tmem hook <event>} would print,
   * as is (JSON, plain text or nothing).
   */
  private void hook(HttpExchange exchange, String event) throws IOException {
    byte[] input;
    try (InputStream in = exchange.getRequestBody()) {
      input = in.readNBytes(MAX_BODY + 1);
    }
    if (input.length > MAX_BODY) {
      error(exchange, 413, "too_large", "request bodies are at most 1 MiB");
      return;
    }
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    boolean privateIndex = "true".equals(query.get("private-index"));
    boolean codex = "codex".equals(query.get("agent"));
    Optional<HookAnswers.Answer> answer = hooks.answer(event, privateIndex, codex, input);
    if (answer.isEmpty()) {
      error(
          exchange,
          404,
          "not_found",
          "no hook " + event + "; there are " + String.join(", ", HookAnswers.events()));
      return;
    }
    byte[] bytes = answer.get().out().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static boolean expect(HttpExchange exchange, String method, String expected)
      throws IOException {
    if (method.equals(expected)) {
      return true;
    }
    exchange.getResponseHeaders().add("Allow", expected);
    error(
        exchange,
        405,
        "method_not_allowed",
        exchange.getRequestURI().getPath() + " takes " + expected);
    return false;
  }

  private static Optional<JsonNode> body(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY + 1);
    }
    if (bytes.length > MAX_BODY) {
      error(exchange, 413, "too_large", "request bodies are at most 1 MiB");
      return Optional.empty();
    }
    try {
      JsonNode body = MemoryServices.JSON.readTree(bytes);
      if (body != null && body.isObject()) {
        return Optional.of(body);
      }
    } catch (IOException notJson) {
      // Answered below.
    }
    error(exchange, 400, "bad_request", "the body must be a JSON object");
    return Optional.empty();
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> parameters = new HashMap<>();
    if (raw == null) {
      return parameters;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        parameters.put(
            URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return parameters;
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    respond(
        exchange,
        status,
        MemoryServices.JSON.createObjectNode().put("error", code).put("message", message));
  }

  private static void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = MemoryServices.JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
