package dev.teammemory.server.auth;

import dev.teammemory.server.limits.WriteRate;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Charges every write to its caller's write rate ({@link WriteRate}), right after authentication
 * established who the caller is and before anything else looks at the request.
 */
final class WriteRateFilter {

  private final WriteRate writeRate;
  private final CurrentCaller currentCaller;

  @Inject
  WriteRateFilter(WriteRate writeRate, CurrentCaller currentCaller) {
    this.writeRate = writeRate;
    this.currentCaller = currentCaller;
  }

  @ServerRequestFilter(priority = Priorities.AUTHENTICATION + 1)
  void limitWrites(ContainerRequestContext request) {
    currentCaller
        .find()
        .ifPresent(
            caller ->
                writeRate.charge(
                    caller.id(),
                    request.getMethod(),
                    request.getHeaderString(HttpHeaders.CONTENT_LENGTH)));
  }
}
