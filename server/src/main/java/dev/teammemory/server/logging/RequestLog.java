package dev.teammemory.server.logging;

import io.quarkus.vertx.core.runtime.VertxMDC;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * One line for every API request when its response has been sent: method, path (never the query,
 * and of the path only route words and the server's own ids: any other segment is a caller's text,
 * shown as {@code *}), status and duration, with the request id, the user and the repository. The
 * request id comes from {@code X-Request-Id} when a proxy sent a plausible one, else it is made
 * here, and is sent back in the response's {@code X-Request-Id}. Every line logged while the
 * request is served carries the same fields, through the logging context (MDC), which Quarkus keeps
 * per request. Health and metrics ({@code /q/...}) are polled every few seconds and are not logged.
 */
@ApplicationScoped
public class RequestLog {

  static final String REQUEST_ID = "request_id";
  static final String USER = "user";
  static final String REPOSITORY = "repository";
  static final String STATUS = "status";
  static final String DURATION_MS = "duration_ms";

  private static final Logger LOG = Logger.getLogger(RequestLog.class);
  private static final String HEADER = "X-Request-Id";
  private static final Pattern PLAUSIBLE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /**
   * The path segments a log line shows: the routes' own words ({@code memory_stores}, {@code v1})
   * and the ids the server made ({@code memstore_…}, {@code mem_…}, {@code memver_…}).
   */
  private static final Pattern SHOWN_SEGMENT =
      Pattern.compile("[a-z_]{1,32}[0-9]?|(?:memstore|mem)_[0-9a-f]{32}|memver_[0-9]{1,18}");

  private static final SecureRandom RANDOM = new SecureRandom();

  /** The authenticated user of the request being served. */
  public static void user(String user) {
    MDC.put(USER, user);
  }

  /** The repository the request being served is about, once it is known to be a valid slug. */
  public static void repository(String repository) {
    MDC.put(REPOSITORY, repository);
  }

  /** The id of the request being served (sent back in {@code X-Request-Id}); null outside one. */
  public static String requestId() {
    Object id = MDC.get(REQUEST_ID);
    return id == null ? null : id.toString();
  }

  void route(@Observes Router router) {
    router.route().order(Integer.MIN_VALUE).handler(this::begin);
  }

  private void begin(RoutingContext context) {
    String path = context.request().path();
    if (path == null || path.startsWith("/q/")) {
      context.next();
      return;
    }
    long started = System.nanoTime();
    String requestId = requestId(context.request().getHeader(HEADER));
    MDC.put(REQUEST_ID, requestId);
    context.response().putHeader(HEADER, requestId);
    String method = context.request().method().name();
    Context request = Vertx.currentContext();
    context.addEndHandler(ended -> end(context, request, method, path, started));
    context.next();
  }

  /**
   * Logs the request's line. A response completed from another thread (the change feed's wait) may
   * end outside the request's Vert.x context, so its fields are read from that context.
   */
  private static void end(
      RoutingContext context, Context request, String method, String path, long started) {
    int status = context.response().getStatusCode();
    String duration = milliseconds(System.nanoTime() - started);
    String requestId = VertxMDC.INSTANCE.get(REQUEST_ID, request);
    String user = VertxMDC.INSTANCE.get(USER, request);
    String repository = VertxMDC.INSTANCE.get(REPOSITORY, request);
    putUnlessNull(REQUEST_ID, requestId);
    putUnlessNull(USER, user);
    putUnlessNull(REPOSITORY, repository);
    MDC.put(STATUS, Integer.toString(status));
    MDC.put(DURATION_MS, duration);
    try {
      // Built by hand rather than with a format: this line is written for every request, and
      // parsing a format string each time was a measurable part of a small request's cost.
      StringBuilder line = new StringBuilder(96);
      line.append(method).append(' ').append(shownPath(path)).append(' ').append(status);
      line.append(" in ").append(duration).append(" ms");
      if (user != null) {
        line.append(" by ").append(user);
      }
      if (repository != null) {
        line.append(" on ").append(repository);
      }
      LOG.info(line.toString());
    } finally {
      MDC.remove(STATUS);
      MDC.remove(DURATION_MS);
      MDC.remove(USER);
      MDC.remove(REPOSITORY);
      MDC.remove(REQUEST_ID);
    }
  }

  /**
   * The path as a log line shows it: a segment that is neither a route's word nor an id the server
   * made becomes {@code *}, so that whatever a caller puts in a path (a token, a marker) stays out.
   */
  static String shownPath(String path) {
    String[] segments = path.split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      if (!segments[i].isEmpty() && !SHOWN_SEGMENT.matcher(segments[i]).matches()) {
        segments[i] = "*";
      }
    }
    return String.join("/", segments);
  }

  /** Nanoseconds as milliseconds with one decimal, rounded half up ({@code 1.5}). */
  static String milliseconds(long nanoseconds) {
    long tenths = (Math.max(nanoseconds, 0) + 50_000) / 100_000;
    return (tenths / 10) + "." + (tenths % 10);
  }

  private static void putUnlessNull(String key, String value) {
    if (value != null) {
      MDC.put(key, value);
    }
  }

  static String requestId(String offered) {
    if (offered != null && PLAUSIBLE_ID.matcher(offered).matches()) {
      return offered;
    }
    byte[] random = new byte[8];
    RANDOM.nextBytes(random);
    // Shaped like the Anthropic API's request ids, which the Memory Stores SDKs show in errors.
    return "req_" + HexFormat.of().formatHex(random);
  }
}
