package dev.teammemory.daemon.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;

/**
 * A loopback HTTP forwarder between a daemon and the server that keeps every request body in memory
 * for assertions (never logs them), and can hold one request until the test releases it.
 */
public final class RecordingProxy implements AutoCloseable {

  /**
   * One forwarded request: method, path with query, body, the server's status, and roughly what
   * both directions cost on the wire (HTTP/1.1 start line, headers and body).
   */
  public record Exchange(
      String method,
      String target,
      byte[] requestBody,
      int status,
      long requestBytes,
      long responseBytes) {
    public String body() {
      return new String(requestBody, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "host",
          "content-length",
          "connection",
          "expect",
          "upgrade",
          "transfer-encoding",
          "keep-alive",
          "te",
          "trailer");

  private final HttpServer server;
  private final ExecutorService executor;
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
  private volatile String upstream;
  private volatile Hold hold;
  private volatile boolean withoutMemoryStores;
  private volatile boolean cutExports;
  private volatile int answering;
  private volatile java.util.Map<String, String> answerHeaders = java.util.Map.of();

  private RecordingProxy(String upstream) throws IOException {
    this.upstream = upstream;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    this.executor =
        Executors.newCachedThreadPool(runnable -> Thread.ofPlatform().daemon().unstarted(runnable));
    server.setExecutor(executor);
    server.createContext("/", this::forward);
    server.start();
  }

  public static RecordingProxy start(String upstream) throws IOException {
    return new RecordingProxy(upstream);
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<Exchange> exchanges() {
    return List.copyOf(exchanges);
  }

  public List<Exchange> puts() {
    return exchanges.stream().filter(exchange -> exchange.method().equals("PUT")).toList();
  }

  /**
   * From now on the proxy plays a server from before the Memory Stores API: {@code /v1/…} and the
   * store lookup answer 404 as such a server would.
   */
  public RecordingProxy withoutMemoryStores() {
    withoutMemoryStores = true;
    return this;
  }

  /**
   * While on, every memory store export reaches the client without its last ({@code complete})
   * line, as when a connection drops at the very end.
   */
  public RecordingProxy cutExports(boolean on) {
    cutExports = on;
    return this;
  }

  /** True when any request body seen so far contains {@code text}. */
  public boolean anyBodyContains(String text) {
    return exchanges.stream().anyMatch(exchange -> exchange.body().contains(text));
  }

  /** Holds the next request matching (method, target) before forwarding it, until released. */
  public Hold holdNext(BiPredicate<String, String> matches) {
    Hold next = new Hold(matches);
    hold = next;
    return next;
  }

  private void forward(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String method = exchange.getRequestMethod();
      URI uri = exchange.getRequestURI();
      String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
      if (answering != 0) {
        exchanges.add(new Exchange(method, target, body, answering, body.length, 0));
        answerHeaders.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        byte[] text = "<html>nothing here</html>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/html");
        exchange.sendResponseHeaders(answering, text.length);
        exchange.getResponseBody().write(text);
        return;
      }
      if (withoutMemoryStores
          && (uri.getRawPath().startsWith("/v1/")
              || uri.getRawPath().endsWith("/team_memory/store"))) {
        byte[] notFound =
            "{\"error\":{\"message\":\"not found\",\"details\":{\"error_code\":\"not_found\"}}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(404, notFound.length);
        exchange.getResponseBody().write(notFound);
        return;
      }
      Hold current = hold;
      if (current != null
          && current.matches.test(method, target)
          && current.claimed.compareAndSet(false, true)) {
        current.arrived.countDown();
        current.released.await();
      }
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(upstream + target))
              .timeout(Duration.ofSeconds(120))
              .method(
                  method,
                  body.length == 0
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(body));
      exchange
          .getRequestHeaders()
          .forEach(
              (name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                  values.forEach(value -> request.header(name, value));
                }
              });
      long requestBytes =
          method.length()
              + target.length()
              + 11
              + body.length
              + headerBytes(exchange.getRequestHeaders());
      HttpResponse<byte[]> response;
      try {
        response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        exchanges.add(new Exchange(method, target, body, 502, requestBytes, 0));
        exchange.sendResponseHeaders(502, -1);
        return;
      }
      long responseBytes = 17 + response.body().length + headerBytes(response.headers().map()) + 20;
      exchanges.add(
          new Exchange(method, target, body, response.statusCode(), requestBytes, responseBytes));
      response
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                  exchange.getResponseHeaders().put(name, values);
                }
              });
      byte[] responseBody = response.body();
      if (cutExports && uri.getRawPath().endsWith("/memories/export")) {
        responseBody = withoutLastLine(responseBody);
      }
      exchange.sendResponseHeaders(
          response.statusCode(), responseBody.length == 0 ? -1 : responseBody.length);
      if (responseBody.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(responseBody);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // The client went away (a killed daemon): the request was still forwarded and recorded.
    }
  }

  private static byte[] withoutLastLine(byte[] body) {
    int end = body.length - 1; // the last line's newline
    while (end > 0 && body[end - 1] != '\n') {
      end--;
    }
    return java.util.Arrays.copyOf(body, Math.max(end, 0));
  }

  private static long headerBytes(java.util.Map<String, List<String>> headers) {
    long bytes = 2;
    for (var header : headers.entrySet()) {
      for (String value : header.getValue()) {
        bytes += header.getKey().length() + 2 + value.length() + 2;
      }
    }
    return bytes;
  }

  /** From now on requests go to {@code url} (a server replaced at another address). */
  public RecordingProxy upstreamIs(String url) {
    upstream = url;
    return this;
  }

  /**
   * While set, every request is answered by the proxy itself with {@code status}, {@code headers}
   * and a plain-text body, as a server that is down, busy or not Team Memory at all would answer;
   * {@code 0} forwards again.
   */
  public RecordingProxy answerAll(int status, java.util.Map<String, String> headers) {
    answering = status;
    answerHeaders = java.util.Map.copyOf(headers);
    return this;
  }

  /** Forgets what was recorded so far. */
  public void clear() {
    exchanges.clear();
  }

  @Override
  public void close() {
    Hold current = hold;
    if (current != null) {
      current.release();
    }
    server.stop(0);
    executor.shutdownNow();
  }

  /** A request held at the proxy. */
  public static final class Hold {
    private final BiPredicate<String, String> matches;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private Hold(BiPredicate<String, String> matches) {
      this.matches = matches;
    }

    public void awaitArrival(Duration deadline) throws InterruptedException {
      if (!arrived.await(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("no matching request reached the proxy within " + deadline);
      }
    }

    public void release() {
      released.countDown();
    }
  }
}
