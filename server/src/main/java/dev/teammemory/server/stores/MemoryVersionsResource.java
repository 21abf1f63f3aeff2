package dev.teammemory.server.stores;

import dev.teammemory.protocol.store.StoreAnswers;
import dev.teammemory.server.errors.StoreApiException;
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.limits.ReadAdmission;
import dev.teammemory.server.memory.CallerViews;
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
  private final CallerViews views;
  private final StoreWrites store;
  private final LimitsConfig limits;
  private final ReadAdmission admission;

  @Inject
  MemoryVersionsResource(
      StoreAccess access,
      StoreReader reader,
      CallerViews views,
      StoreWrites store,
      LimitsConfig limits,
      ReadAdmission admission) {
    this.access = access;
    this.reader = reader;
    this.views = views;
    this.store = store;
    this.limits = limits;
    this.admission = admission;
  }

  @GET
  public StoreAnswers.Page list(
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
    admission.admit(
        target.target().caller().id(),
        ReadAdmission.Kind.READ,
        full
            ? ReadAdmission.HELD_PER_CONTENT_BYTE * limits.maxPageBytes()
            : ReadAdmission.METADATA_PAGE_BYTES);
    long repositoryId = target.store().repositoryId();
    Optional<Long> before = StoreRequests.numericPosition(page, CURSOR);
    Optional<String> viewer = views.viewer(target.target());
    List<VersionRow> rows =
        reader.versions(viewer, repositoryId, filter.withoutContent(), before, size + 1);
    int fitting = full ? fittingInPage(rows, size) : Math.min(rows.size(), size);
    String next = null;
    if (rows.size() > fitting) {
      next = StoreRequests.cursor(CURSOR, Long.toString(rows.get(fitting - 1).rowId()));
    }
    rows = rows.subList(0, fitting);
    if (full && !rows.isEmpty()) {
      // The page's rows again, now with their contents: the ids bound the read to what fits.
      rows =
          reader.versions(
              viewer,
              repositoryId,
              filter,
              Optional.of(rows.get(0).rowId() + 1),
              fitting,
              rows.get(fitting - 1).rowId());
    }
    return new StoreAnswers.Page(
        rows.stream().map(row -> StoreBodies.of(storeId, row)).toList(), next);
  }

  @GET
  @Path("{version}")
  public StoreAnswers.MemoryVersion retrieve(
      @RestPath("store") String storeId,
      @RestPath("version") String versionId,
      @RestQuery String view) {
    AuthorizedStore target = access.read(storeId);
    boolean full = StoreRequests.fullView(view, true);
    return StoreBodies.of(storeId, version(target, versionId, full));
  }

  @POST
  @Path("{version}/redact")
  public StoreAnswers.MemoryVersion redact(
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

  /**
   * How many of {@code rows} (sizes only) one full page carries: at most {@code size}, and no more
   * once their contents reach the page byte limit (at least one).
   */
  private int fittingInPage(List<VersionRow> rows, int size) {
    long bytes = 0;
    int fitting = 0;
    for (VersionRow row : rows) {
      if (fitting == size || (fitting > 0 && bytes + row.sizeBytes() > limits.maxPageBytes())) {
        break;
      }
      bytes += row.sizeBytes();
      fitting++;
    }
    return fitting;
  }

  private VersionRow version(AuthorizedStore target, String versionId, boolean full) {
    long rowId = Ids.versionRowId(versionId);
    if (rowId < 0) {
      throw noSuchVersion(versionId);
    }
    return reader
        .version(views.viewer(target.target()), target.store().repositoryId(), rowId, full)
        .orElseThrow(() -> noSuchVersion(versionId));
  }

  private static StoreApiException noSuchVersion(String versionId) {
    return StoreApiException.notFound(
        "memory version "
            + StoreAccess.printable(versionId)
            + " was not found in this memory store");
  }
}
