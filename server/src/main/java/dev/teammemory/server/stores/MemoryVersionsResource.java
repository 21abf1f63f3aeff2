package dev.teammemory.server.stores;

import dev.teammemory.server.errors.StoreApiException;
import dev.teammemory.server.memory.EntryStore;
import dev.teammemory.server.memory.Ids;
import dev.teammemory.server.memory.RedactOutcome;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code /v1/memory_stores/{store}/memory_versions}: the kept history of the store's memories (the
 * entry history {@code team_memory} keeps), newest first, and redaction of one version.
 */
@Path("/v1/memory_stores/{store}/memory_versions")
@Produces(MediaType.APPLICATION_JSON)
public class MemoryVersionsResource {

  private static final Logger LOG = Logger.getLogger(MemoryVersionsResource.class);
  private static final char CURSOR = 'v';
  private static final Set<String> OPERATIONS = Set.of("created", "modified", "deleted");

  private final StoreAccess access;
  private final StoreReader reader;
  private final EntryStore store;

  @Inject
  MemoryVersionsResource(StoreAccess access, StoreReader reader, EntryStore store) {
    this.access = access;
    this.reader = reader;
    this.store = store;
  }

  @GET
  public StoreBodies.Page list(
      @RestPath("store") String storeId,
      @RestQuery("memory_id") String memoryId,
      @RestQuery String operation,
      @RestQuery("created_at[gte]") String createdFrom,
      @RestQuery("created_at[lte]") String createdUntil,
      @RestQuery String view,
      @RestQuery String limit,
      @RestQuery String page) {
    AuthorizedStore target = access.read(storeId);
    if (operation != null && !OPERATIONS.contains(operation)) {
      throw StoreApiException.invalid("operation must be created, modified or deleted");
    }
    boolean full = StoreRequests.fullView(view, false);
    int size = StoreRequests.limit(limit, full);
    VersionFilter filter =
        new VersionFilter(
            Optional.ofNullable(memoryId),
            Optional.ofNullable(operation),
            StoreRequests.time(createdFrom, "created_at[gte]"),
            StoreRequests.time(createdUntil, "created_at[lte]"),
            full);
    List<VersionRow> rows =
        reader.versions(
            target.store().repositoryId(),
            filter,
            StoreRequests.numericPosition(page, CURSOR),
            size + 1);
    String next = null;
    if (rows.size() > size) {
      rows = rows.subList(0, size);
      next = StoreRequests.cursor(CURSOR, Long.toString(rows.get(size - 1).rowId()));
    }
    return new StoreBodies.Page(
        rows.stream().map(row -> StoreBodies.of(storeId, row)).toList(), next);
  }

  @GET
  @Path("{version}")
  public StoreBodies.MemoryVersion retrieve(
      @RestPath("store") String storeId,
      @RestPath("version") String versionId,
      @RestQuery String view) {
    AuthorizedStore target = access.read(storeId);
    boolean full = StoreRequests.fullView(view, true);
    return StoreBodies.of(storeId, version(target, versionId, full));
  }

  @POST
  @Path("{version}/redact")
  public StoreBodies.MemoryVersion redact(
      @RestPath("store") String storeId, @RestPath("version") String versionId) {
    AuthorizedStore target = access.write(storeId);
    long rowId = Ids.versionRowId(versionId);
    if (rowId < 0) {
      throw noSuchVersion(versionId);
    }
    return switch (store.redactVersion(target.target(), storeId, rowId)) {
      case RedactOutcome.Redacted redacted -> {
        LOG.infof(
            "Memory version %s of %s redacted by %s",
            versionId, target.store().slug(), target.target().caller().user());
        yield StoreBodies.of(storeId, version(target, versionId, true));
      }
      case RedactOutcome.NotFound none -> throw noSuchVersion(versionId);
      case RedactOutcome.CurrentVersion current ->
          throw StoreApiException.invalid(
              "cannot redact the current version of a memory; update or delete the memory first");
    };
  }

  private VersionRow version(AuthorizedStore target, String versionId, boolean full) {
    long rowId = Ids.versionRowId(versionId);
    if (rowId < 0) {
      throw noSuchVersion(versionId);
    }
    return reader
        .version(target.store().repositoryId(), rowId, full)
        .orElseThrow(() -> noSuchVersion(versionId));
  }

  private static StoreApiException noSuchVersion(String versionId) {
    return StoreApiException.notFound(
        "memory version "
            + StoreAccess.printable(versionId)
            + " was not found in this memory store");
  }
}
