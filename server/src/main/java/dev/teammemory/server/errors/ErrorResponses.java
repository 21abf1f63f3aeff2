package dev.teammemory.server.errors;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Maps every exception a resource can end in to the protocol's JSON error envelope, once, so no
 * client ever sees an HTML page or a stack trace. Expected refusals are {@link ApiException}s;
 * anything else is a bug or an outage and becomes {@code 500 internal_error}, logged here.
 */
public final class ErrorResponses {

  private static final Logger LOG = Logger.getLogger(ErrorResponses.class);

  private final MeterRegistry registry;

  @Inject
  ErrorResponses(MeterRegistry registry) {
    this.registry = registry;
  }

  @ServerExceptionMapper
  Response refused(ApiException exception) {
    registry.counter("tmem.rejections", "error_code", exception.errorCode()).increment();
    Response.ResponseBuilder response =
        Response.status(exception.status())
            .type(MediaType.APPLICATION_JSON_TYPE)
            .entity(exception.envelope());
    exception.headers().forEach(response::header);
    return response.build();
  }

  @ServerExceptionMapper
  Response unknownPath(NotFoundException exception, UriInfo uri) {
    return refused(
        ApiException.of(404, ErrorCodes.NOT_FOUND, "no such endpoint: " + uri.getPath()));
  }

  @ServerExceptionMapper
  Response methodNotAllowed(NotAllowedException exception, HttpHeaders headers, UriInfo uri) {
    String allowed = exception.getResponse().getHeaderString(HttpHeaders.ALLOW);
    ApiException refusal =
        ApiException.of(
            405,
            ErrorCodes.METHOD_NOT_ALLOWED,
            "this method is not allowed on "
                + uri.getPath()
                + (allowed == null ? "" : " (allowed: " + allowed + ")"));
    Response response = refused(refusal);
    return allowed == null
        ? response
        : Response.fromResponse(response).header(HttpHeaders.ALLOW, allowed).build();
  }

  /** Whatever else the HTTP layer refuses (406, 415, …): its status, in our envelope. */
  @ServerExceptionMapper
  Response otherHttpError(WebApplicationException exception) {
    int status = exception.getResponse().getStatus();
    if (status >= 500) {
      return unexpected(exception);
    }
    String code =
        switch (status) {
          case 404 -> ErrorCodes.NOT_FOUND;
          case 405 -> ErrorCodes.METHOD_NOT_ALLOWED;
          case 413 -> ErrorCodes.REQUEST_TOO_LARGE;
          case 415 -> ErrorCodes.UNSUPPORTED_MEDIA_TYPE;
          default -> ErrorCodes.INVALID_PARAMETER;
        };
    return refused(ApiException.of(status, code, "request refused: " + reasonOf(status)));
  }

  @ServerExceptionMapper
  Response unexpected(Throwable exception, HttpServerRequest request) {
    if (request.response().closed()) {
      // A client that closed its connection mid-response, or was cut for stalling: nothing
      // failed on the server, and nobody is left to answer.
      LOG.infof("the client went away before the response was sent: %s", exception.getMessage());
      return Response.status(500).build();
    }
    return unexpected(exception);
  }

  private Response unexpected(Throwable exception) {
    // Logged with its stack trace for the operator; the client learns only that it failed. Our
    // exception messages never carry content or tokens (house rule), and SQL is parameterised.
    LOG.error("unexpected failure while serving a request", exception);
    registry.counter("tmem.rejections", "error_code", ErrorCodes.INTERNAL).increment();
    return Response.status(500)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(
            ErrorEnvelope.of(
                ErrorCodes.INTERNAL,
                "the server failed to handle this request; the failure is logged on the server"))
        .build();
  }

  private static String reasonOf(int status) {
    Response.Status known = Response.Status.fromStatusCode(status);
    return known == null ? "HTTP " + status : status + " " + known.getReasonPhrase();
  }
}
