package dev.teammemory.server.errors;

import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.server.logging.RequestLog;
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
 * anything else is a bug or an outage and becomes {@code 500 internal_error}, logged here. Under
 * {@code /v1/} (the Memory Stores API) every error, the protocol's refusals included, is written in
 * that API's envelope instead ({@link StoreApiException}), which the Anthropic SDKs read.
 */
public final class ErrorResponses {

  private static final Logger LOG = Logger.getLogger(ErrorResponses.class);

  /** Where the Memory Stores API lives. */
  public static final String MEMORY_STORES_ROOT = "/v1";

  private final Rejections rejections;

  @Inject
  ErrorResponses(Rejections rejections) {
    this.rejections = rejections;
  }

  @ServerExceptionMapper
  Response refused(ApiException exception, UriInfo uri) {
    if (isMemoryStoresApi(uri)) {
      return storeApiRefusal(StoreApiException.of(exception));
    }
    return teamMemoryRefusal(exception);
  }

  /** A Memory Stores API refusal, in that API's envelope. */
  @ServerExceptionMapper
  Response storeApiRefusal(StoreApiException exception) {
    rejections.count(exception.type());
    Response.ResponseBuilder response =
        Response.status(exception.status())
            .type(MediaType.APPLICATION_JSON_TYPE)
            .entity(exception.body(RequestLog.requestId()));
    exception.headers().forEach(response::header);
    return response.build();
  }

  /**
   * Whether the request is one of the Memory Stores API ({@code /v1/…}), whose clients read every
   * error in that API's envelope; {@code team_memory} keeps its own.
   */
  public static boolean isMemoryStoresApi(UriInfo uri) {
    String path = uri.getPath();
    return path.equals(MEMORY_STORES_ROOT) || path.startsWith(MEMORY_STORES_ROOT + "/");
  }

  private Response teamMemoryRefusal(ApiException exception) {
    rejections.count(exception.errorCode());
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
        ApiException.of(404, ErrorCodes.NOT_FOUND, "no such endpoint: " + uri.getPath()), uri);
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
    Response response = refused(refusal, uri);
    return allowed == null
        ? response
        : Response.fromResponse(response).header(HttpHeaders.ALLOW, allowed).build();
  }

  /** Whatever else the HTTP layer refuses (406, 415, …): its status, in our envelope. */
  @ServerExceptionMapper
  Response otherHttpError(WebApplicationException exception, UriInfo uri) {
    int status = exception.getResponse().getStatus();
    if (status >= 500) {
      return unexpected(exception, uri);
    }
    String code =
        switch (status) {
          case 404 -> ErrorCodes.NOT_FOUND;
          case 405 -> ErrorCodes.METHOD_NOT_ALLOWED;
          case 413 -> ErrorCodes.REQUEST_TOO_LARGE;
          case 415 -> ErrorCodes.UNSUPPORTED_MEDIA_TYPE;
          default -> ErrorCodes.INVALID_PARAMETER;
        };
    return refused(ApiException.of(status, code, "request refused: " + reasonOf(status)), uri);
  }

  @ServerExceptionMapper
  Response unexpected(Throwable exception, UriInfo uri, HttpServerRequest request) {
    if (request.response().closed()) {
      // A client that closed its connection mid-response, or was cut for stalling: nothing
      // failed on the server, and nobody is left to answer.
      LOG.infof(
          "request %s: the client went away before the response was sent", RequestLog.requestId());
      return Response.status(500).build();
    }
    return unexpected(exception, uri);
  }

  private Response unexpected(Throwable exception, UriInfo uri) {
    // The request id, what kind of failure and where, for the operator; never the exception's
    // message or stack trace, which may quote what the caller sent (a driver's error quotes the
    // statement's values). The client learns only that it failed.
    LOG.errorf(
        "request %s failed unexpectedly: %s",
        RequestLog.requestId(), UnexpectedFailure.describe(exception));
    if (isMemoryStoresApi(uri)) {
      return storeApiRefusal(
          new StoreApiException(
              500,
              StoreApiException.API_ERROR,
              "the server failed to handle this request; the failure is logged on the server"));
    }
    rejections.count(ErrorCodes.INTERNAL);
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
