package dev.teammemory.server.stores;

import dev.teammemory.protocol.UnicodeText;
import dev.teammemory.server.errors.ErrorResponses;
import dev.teammemory.server.errors.StoreApiException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The ids in a Memory Stores API path (store, memory, version) are looked up in PostgreSQL, which
 * refuses a NUL in text: an id that is not storable text (a NUL, an unpaired surrogate, as {@code
 * mem_%00} decodes to) names nothing, so it is a {@code 404} before any lookup, never a {@code
 * 500}.
 */
final class PathIds {

  @ServerRequestFilter(priority = Priorities.AUTHORIZATION)
  void refuseUnstorableIds(ContainerRequestContext request) {
    if (!ErrorResponses.isMemoryStoresApi(request.getUriInfo())) {
      return;
    }
    for (Map.Entry<String, List<String>> parameter :
        request.getUriInfo().getPathParameters().entrySet()) {
      for (String value : parameter.getValue()) {
        if (UnicodeText.violation(value).isPresent()) {
          throw StoreApiException.notFound(
              "no " + parameter.getKey() + " has this id in this memory store API");
        }
      }
    }
  }
}
