package dev.teammemory.server.errors;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** A test-only endpoint that fails the way a bug would. */
@Path(FailingResource.PATH)
public class FailingResource {

  static final String PATH = "/test-only/failure";
  static final String MESSAGE = "internal detail that must stay on the server";

  @GET
  public String fail() {
    throw new IllegalStateException(MESSAGE);
  }
}
