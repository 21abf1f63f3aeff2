package dev.teammemory.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.ProtocolJson;
import dev.teammemory.server.errors.ErrorResponses;
import dev.teammemory.server.errors.Rejections;
import dev.teammemory.server.errors.StoreApiException;
import dev.teammemory.server.logging.RequestLog;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * What the HTTP layer refuses before any resource runs, answered in the JSON envelope of the API
 * the path belongs to, as every other refusal: a request target longer than {@link
 * #MAX_TARGET_LENGTH} ({@code 414}), headers larger than {@link #MAX_HEADER_BYTES} ({@code 431}),
 * and a URL that cannot be decoded (a bad percent-encoding, in the path or the query: {@code 400}).
 * Vert.x's own limits ({@code quarkus.http.limits.max-initial-line-length} and {@code
 * max-header-size}) are set far above these, as a backstop: a request beyond them is refused by the
 * HTTP codec itself with an empty body, since Quarkus offers no hook there.
 */
@ApplicationScoped
class HttpLayerRefusals {

  /** The longest request target (path and query) answered: Vert.x's former default line. */
  static final int MAX_TARGET_LENGTH = 8192;

  /** The most header bytes (names, values and separators) answered. */
  static final int MAX_HEADER_BYTES = 20 * 1024;

  private static final String UNDECODABLE =
      "the request's URL could not be decoded (a bad percent-encoding?)";

  private final Rejections rejections;

  @Inject
  HttpLayerRefusals(Rejections rejections) {
    this.rejections = rejections;
  }

  void route(@Observes Router router) {
    // After the request log's handler (Integer.MIN_VALUE), so that the refusal has a request id.
    router.route().order(Integer.MIN_VALUE + 1).handler(this::limit);
    router.errorHandler(
        400, context -> refuse(context, 400, ErrorCodes.INVALID_PARAMETER, UNDECODABLE));
  }

  private void limit(RoutingContext context) {
    if (context.request().uri().length() > MAX_TARGET_LENGTH) {
      refuse(
          context,
          414,
          ErrorCodes.REQUEST_TOO_LARGE,
          "the request's URL is longer than this server's limit of "
              + MAX_TARGET_LENGTH
              + " characters");
      return;
    }
    if (!parses(context.request().uri())) {
      refuse(context, 400, ErrorCodes.INVALID_PARAMETER, UNDECODABLE);
      return;
    }
    if (headerBytes(context.request().headers()) > MAX_HEADER_BYTES) {
      refuse(
          context,
          431,
          ErrorCodes.REQUEST_TOO_LARGE,
          "the request's headers are larger than this server's limit of "
              + MAX_HEADER_BYTES
              + " bytes");
      return;
    }
    context.next();
  }

  /**
   * The check Quarkus's HTTP layer makes before any handler (switched off by {@code ServerMain} so
   * that this one answers instead): a request target {@link URI} can parse, the query included.
   */
  private static boolean parses(String target) {
    if (target == null) {
      return false;
    }
    try {
      new URI(target);
      return true;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static long headerBytes(MultiMap headers) {
    long bytes = 0;
    for (Map.Entry<String, String> header : headers) {
      bytes += header.getKey().length() + header.getValue().length() + 4;
    }
    return bytes;
  }

  private void refuse(RoutingContext context, int status, String code, String message) {
    HttpServerResponse response = context.response();
    if (response.headWritten()) {
      response.close();
      return;
    }
    String path = context.request().path();
    boolean memoryStores =
        path != null
            && (path.equals(ErrorResponses.MEMORY_STORES_ROOT)
                || path.startsWith(ErrorResponses.MEMORY_STORES_ROOT + "/"));
    Object body;
    if (memoryStores) {
      StoreApiException refusal =
          new StoreApiException(status, StoreApiException.typeOf(status), message);
      rejections.count(refusal.type());
      body = refusal.body(RequestLog.requestId());
    } else {
      rejections.count(code);
      body = ErrorEnvelope.of(code, message);
    }
    byte[] bytes;
    try {
      bytes = ProtocolJson.mapper().writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an error envelope could not be written", e);
    }
    // The rest of such a request is not read: the connection closes after the answer.
    response
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .putHeader("Connection", "close")
        .end(Buffer.buffer(bytes));
  }
}
