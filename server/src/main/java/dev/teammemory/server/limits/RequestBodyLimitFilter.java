package dev.teammemory.server.limits;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.server.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Enforces {@code TMEM_LIMITS_MAX_BODY_BYTES} on request bodies ourselves, so that an oversized
 * body gets the protocol's JSON {@code 413 request_too_large} instead of the HTTP layer's bare
 * page. The body stream is wrapped rather than checked here, so that the check happens when the
 * resource reads the body: after authentication, access and Content-Type, in the protocol's order.
 * It refuses a declared {@code Content-Length} over the limit before reading anything, and counts
 * the bytes actually streamed, for chunked bodies and for clients that under-declare.
 */
final class RequestBodyLimitFilter {

  private final LimitsConfig limits;

  @Inject
  RequestBodyLimitFilter(LimitsConfig limits) {
    this.limits = limits;
  }

  @ServerRequestFilter
  void limitBody(ContainerRequestContext request) {
    String method = request.getMethod();
    if (method.equals("PUT") || method.equals("POST") || method.equals("PATCH")) {
      request.setEntityStream(
          new LimitedBody(
              request.getEntityStream(),
              request.getHeaderString(HttpHeaders.CONTENT_LENGTH),
              limits.maxBodyBytes()));
    }
  }

  /** The {@code 413} for a body over the limit. */
  static ApiException tooLarge(long maxBytes) {
    // Connection: close, because the rest of the body is never read: the client should not wait
    // for a connection that is still full of it.
    return new ApiException(
        413,
        ErrorEnvelope.of(
            ErrorCodes.REQUEST_TOO_LARGE,
            "the request body is larger than this server's limit of " + maxBytes + " bytes",
            Map.of("max_bytes", maxBytes)),
        Map.of("Connection", "close"));
  }

  /** A body stream that fails with {@link #tooLarge} once more than the limit is read. */
  static final class LimitedBody extends FilterInputStream {

    private final String declaredLength;
    private final long maxBytes;
    private long read;
    private boolean checkedDeclaration;

    LimitedBody(InputStream body, String declaredLength, long maxBytes) {
      super(body);
      this.declaredLength = declaredLength;
      this.maxBytes = maxBytes;
    }

    @Override
    public int read() throws IOException {
      checkDeclaration();
      int next = super.read();
      if (next >= 0) {
        count(1);
      }
      return next;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      checkDeclaration();
      int count = super.read(buffer, offset, length);
      if (count > 0) {
        count(count);
      }
      return count;
    }

    @Override
    public long skip(long count) throws IOException {
      checkDeclaration();
      long skipped = super.skip(count);
      count(skipped);
      return skipped;
    }

    private void checkDeclaration() {
      if (checkedDeclaration) {
        return;
      }
      checkedDeclaration = true;
      if (declaredLength == null) {
        return;
      }
      try {
        if (Long.parseLong(declaredLength.strip()) > maxBytes) {
          throw tooLarge(maxBytes);
        }
      } catch (NumberFormatException e) {
        // The HTTP layer rejects a malformed Content-Length before we run; count what arrives.
      }
    }

    private void count(long bytes) {
      read += bytes;
      if (read > maxBytes) {
        throw tooLarge(maxBytes);
      }
    }
  }
}
