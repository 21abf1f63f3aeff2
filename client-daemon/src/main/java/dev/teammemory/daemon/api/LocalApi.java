package dev.teammemory.daemon.api;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The local API for other agents, on loopback only: {@code POST /v1/recall}, {@code GET
 * /v1/notes?session=ID[&cwd=DIR]} and {@code POST /v1/compact}, each answering JSON. Every request
 * needs {@code Authorization: Bearer <token>} with the token from {@code <state>/api-token}. Errors
 * are {@code {"error": code, "message": …}} with 400, 401, 404, 405, 413 or 500.
 *
 * <p>Threads: the JDK's server thread accepts; a pool of two handles requests, so one long
 * compaction does not stop a recall.
 */
public final class LocalApi implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LocalApi.class.getName());
  private static final int MAX_BODY = 1024 * 1024;

  private final HttpServer server;
  private final ExecutorService handlers;
  private final MemoryServices services;
  private final ApiToken token;

  private LocalApi(
      HttpServer server, ExecutorService handlers, MemoryServices services, ApiToken token) {
    this.server = server;
    this.handlers = handlers;
    this.services = services;
    this.token = token;
  }

  /**
   * Starts serving on 127.0.0.1.
   *
   * @param port the port, or 0 for any free one
   */
  static LocalApi start(int port, MemoryServices services, ApiToken token) throws IOException {
    requireNonNull(services, "services is null");
    requireNonNull(token, "token is null");
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
    ExecutorService handlers =
        Executors.newFixedThreadPool(
            2,
            runnable -> {
              Thread thread = new Thread(runnable, "tmem-api");
              thread.setDaemon(true);
              return thread;
            });
    LocalApi api = new LocalApi(server, handlers, services, token);
    server.createContext("/", api::handle);
    server.setExecutor(handlers);
    server.start();
    return api;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public String url() {
    return "http://127.0.0.1:" + port();
  }

  @Override
  public void close() {
    server.stop(1);
    handlers.shutdownNow();
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
        default ->
            error(
                exchange,
                404,
                "not_found",
                "no endpoint " + path + "; there are /v1/recall, /v1/notes and /v1/compact");
      }
    } catch (MemoryServices.BadRequest bad) {
      error(exchange, 400, "bad_request", bad.getMessage());
    } catch (IOException | RuntimeException failure) {
      // Never the request body: it may hold a transcript's path or a prompt.
      LOG.log(
          Level.WARNING,
          "local API: "
              + exchange.getRequestURI().getPath()
              + " failed: "
              + failure.getClass().getSimpleName());
      error(exchange, 500, "internal_error", failure.getClass().getSimpleName());
    } finally {
      exchange.close();
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
