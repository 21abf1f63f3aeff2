package dev.teammemory.server.stores;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.protocol.store.StoreAnswers;
import dev.teammemory.server.errors.StoreApiException;
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.limits.ReadAdmission;
import dev.teammemory.server.memory.CallerViews;
import dev.teammemory.server.memory.MemoryRow;
import dev.teammemory.server.secrets.SecretCheck;
import dev.teammemory.server.secrets.SecretFinding;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code /v1/memory_stores/{store}/memories}: one memory per entry of the store's repository, its
 * path {@code "/" + key}. Writes go through {@link StoreWrites}, in the same transaction as {@code
 * team_memory}'s (the repository's version and checksum move, the change feed wakes). The NDJSON
 * export ({@code …/memories/export}) is served by its own resource.
 */
@Path("/v1/memory_stores/{store}/memories")
@Produces(MediaType.APPLICATION_JSON)
public class MemoriesResource {

  private static final Logger LOG = Logger.getLogger(MemoriesResource.class);
  private static final char CURSOR = 'm';

  /** The message Claude Code matches exactly. */
  static final String SECRET_MESSAGE = SecretFields.message("memory content");

  private final StoreAccess access;
  private final StoreReader reader;
  private final CallerViews views;
  private final StoreWrites store;
  private final SecretCheck secrets;
  private final SecretFields secretFields;
  private final ReadAdmission admission;
  private final LimitsConfig limits;

  @Inject
  MemoriesResource(
      StoreAccess access,
      StoreReader reader,
      CallerViews views,
      StoreWrites store,
      SecretCheck secrets,
      SecretFields secretFields,
      ReadAdmission admission,
      LimitsConfig limits) {
    this.access = access;
    this.reader = reader;
    this.views = views;
    this.store = store;
    this.secrets = secrets;
    this.secretFields = secretFields;
    this.admission = admission;
    this.limits = limits;
  }

  @POST
  public StoreAnswers.Memory create(@RestPath("store") String storeId, InputStream body) {
    AuthorizedStore target = access.write(storeId);
    ObjectNode request = StoreRequests.object(body);
    String key =
        keyOf(
            StoreRequests.string(request, "path")
                .orElseThrow(() -> StoreApiException.invalid("path is required")));
    String content =
        StoreRequests.content(request)
            .orElseThrow(() -> StoreApiException.invalid("content is required"));
    boolean mustNotExist =
        StoreRequests.object(request, "precondition")
            .map(
                precondition -> {
                  if (!StoreRequests.string(precondition, "type").orElse("").equals("not_exists")) {
                    throw StoreApiException.invalid(
                        "precondition.type must be not_exists when creating a memory");
                  }
                  return true;
                })
            .orElse(false);
    List<SecretFinding> findings = secrets.scan(Map.of(key, content));
    MemoryOutcome outcome = store.createMemory(target.target(), storeId, key, content, findings);
    if (outcome instanceof MemoryOutcome.PathConflict conflict
        && mustNotExist
        && conflict.conflictingKey().equals(key)) {
      throw StoreApiException.conflict(
          StoreApiException.PRECONDITION_FAILED,
          "a memory already exists at " + MemoryPaths.pathOf(key),
          Map.of());
    }
    return answer(target, outcome, Optional.empty());
  }

  @GET
  public StoreAnswers.Page list(
      @RestPath("store") String storeId,
      @RestQuery("path_prefix") String pathPrefix,
      @RestQuery String depth,
      @RestQuery String view,
      @RestQuery("order_by") String orderBy,
      @RestQuery String order,
      @RestQuery String limit,
      @RestQuery String page) {
    AuthorizedStore target = access.read(storeId);
    String keyPrefix = MemoryPaths.keyPrefixOf(pathPrefix);
    boolean childrenOnly =
        switch (depth == null ? "0" : depth) {
          case "0" -> false;
          case "1" -> true;
          default -> throw StoreApiException.invalid("depth must be 0 (all) or 1 (children)");
        };
    if (orderBy != null && !orderBy.equals("path")) {
      throw StoreApiException.invalid("order_by must be path");
    }
    boolean descending =
        switch (order == null ? "asc" : order) {
          case "asc" -> false;
          case "desc" -> true;
          default -> throw StoreApiException.invalid("order must be asc or desc");
        };
    boolean full = StoreRequests.fullView(view, false);
    int size = StoreRequests.limit(limit, full);
    Optional<String> after = StoreRequests.position(page, CURSOR);
    admission.admit(
        target.target().caller().id(),
        ReadAdmission.Kind.READ,
        full
            ? ReadAdmission.HELD_PER_CONTENT_BYTE * size * limits.maxEntryBytes()
            : ReadAdmission.METADATA_PAGE_BYTES);
    List<ListedItem> items =
        reader.memories(
            views.viewer(target.target()),
            target.store().repositoryId(),
            keyPrefix,
            childrenOnly,
            descending,
            after,
            size + 1,
            full);
    String next = null;
    if (items.size() > size) {
      items = items.subList(0, size);
      next = StoreRequests.cursor(CURSOR, items.get(size - 1).sortKey());
    }
    return new StoreAnswers.Page(
        items.stream().map(item -> StoreBodies.of(storeId, item)).toList(), next);
  }

  @GET
  @Path("{memory}")
  public StoreAnswers.Memory retrieve(
      @RestPath("store") String storeId,
      @RestPath("memory") String memoryId,
      @RestQuery String view) {
    // The store and the memory come in one statement; the caller's access is checked before the
    // view (a store the caller cannot see is 404 whatever the view), so a bad view reads content.
    Optional<StoreReader.StoreWithMemory> found =
        reader.storeWithMemory(storeId, memoryId, !"basic".equals(view));
    AuthorizedStore target = access.read(storeId, found.map(StoreReader.StoreWithMemory::store));
    StoreRequests.fullView(view, true);
    // A caller who reads a view of the repository (review required) reads the memory again, as
    // their view has it: the one statement read the newest.
    Optional<String> viewer = views.viewer(target.target());
    Optional<MemoryRow> shown =
        viewer.isPresent()
            ? reader.memory(
                viewer.get(), target.store().repositoryId(), memoryId, !"basic".equals(view))
            : found.flatMap(StoreReader.StoreWithMemory::memory);
    return shown
        .map(memory -> StoreBodies.of(storeId, memory))
        .orElseThrow(() -> noSuchMemory(memoryId));
  }

  @POST
  @Path("{memory}")
  public StoreAnswers.Memory update(
      @RestPath("store") String storeId, @RestPath("memory") String memoryId, InputStream body) {
    AuthorizedStore target = access.write(storeId);
    ObjectNode request = StoreRequests.object(body);
    Optional<String> key = StoreRequests.string(request, "path").map(this::keyOf);
    Optional<String> content = StoreRequests.content(request);
    Optional<String> expected =
        StoreRequests.object(request, "precondition")
            .map(
                precondition -> {
                  if (!StoreRequests.string(precondition, "type")
                      .orElse("")
                      .equals("content_sha256")) {
                    throw StoreApiException.invalid(
                        "precondition.type must be content_sha256 when updating a memory");
                  }
                  return StoreRequests.checksum(
                      StoreRequests.string(precondition, "content_sha256").orElse(null),
                      "precondition.content_sha256");
                });
    List<SecretFinding> findings =
        content.map(text -> secrets.scan(Map.of(key.orElse(memoryId), text))).orElse(List.of());
    MemoryOutcome outcome =
        store.updateMemory(target.target(), storeId, memoryId, content, key, expected, findings);
    return answer(target, outcome, Optional.of(memoryId));
  }

  @DELETE
  @Path("{memory}")
  public StoreAnswers.Deleted delete(
      @RestPath("store") String storeId,
      @RestPath("memory") String memoryId,
      @RestQuery("expected_content_sha256") String expectedContentSha256) {
    AuthorizedStore target = access.write(storeId);
    Optional<String> expected =
        Optional.ofNullable(expectedContentSha256)
            .map(value -> StoreRequests.checksum(value, "expected_content_sha256"));
    return switch (store.deleteMemory(target.target(), storeId, memoryId, expected)) {
      case MemoryOutcome.Deleted deleted -> new StoreAnswers.Deleted(memoryId, "memory_deleted");
      case MemoryOutcome.NotFound none -> throw noSuchMemoryOrStore(target, memoryId);
      case MemoryOutcome.PreconditionFailed failed -> throw stale();
      case MemoryOutcome.Archived archived -> throw MemoryStoresResource.archived(storeId);
      default -> throw new IllegalStateException("deleting a memory came to a write outcome");
    };
  }

  /** The key of a path that keeps the path rules and holds no secret (a rename's too). */
  private String keyOf(String path) {
    String key = MemoryPaths.keyOf(path);
    secretFields.requireNone("memory path", path);
    return key;
  }

  /** The answer to a create or an update: the memory as written, or the refusal. */
  private StoreAnswers.Memory answer(
      AuthorizedStore target, MemoryOutcome outcome, Optional<String> memoryId) {
    String storeId = target.store().id();
    return switch (outcome) {
      case MemoryOutcome.Written written -> {
        LOG.infof(
            "Memory %s of %s written by %s",
            written.memory().memoryId(), target.store().slug(), target.target().caller().user());
        yield StoreBodies.of(storeId, written.memory());
      }
      case MemoryOutcome.Unchanged unchanged -> StoreBodies.of(storeId, unchanged.memory());
      case MemoryOutcome.NotFound none ->
          throw memoryId.isPresent()
              ? noSuchMemoryOrStore(target, memoryId.get())
              : StoreAccess.noSuchStore(storeId);
      case MemoryOutcome.Archived archived -> throw MemoryStoresResource.archived(storeId);
      case MemoryOutcome.PathConflict conflict ->
          throw StoreApiException.conflict(
              StoreApiException.PATH_CONFLICT,
              "the path conflicts with the memory at "
                  + MemoryPaths.pathOf(conflict.conflictingKey())
                  + ": a path may not equal, contain or lie inside another memory's path",
              // In this order on every run (Map.of's order changes from one JVM to the next).
              orderedFields(
                  "conflicting_path",
                  MemoryPaths.pathOf(conflict.conflictingKey()),
                  "conflicting_memory_id",
                  conflict.conflictingMemoryId()));
      case MemoryOutcome.PreconditionFailed failed -> throw stale();
      case MemoryOutcome.TooManyEntries cap ->
          throw StoreApiException.invalid("memory store has reached its memory limit");
      case MemoryOutcome.RepositoryTooLarge large ->
          throw StoreApiException.invalid("memory store has reached its size limit");
      case MemoryOutcome.SecretDetected detected -> {
        for (SecretFinding finding : detected.findings()) {
          LOG.infof(
              "Refused a memory write to %s by %s: rule %s found a secret at line %d"
                  + " (fingerprint %s)",
              target.store().slug(),
              target.target().caller().user(),
              finding.ruleId(),
              finding.line(),
              finding.fingerprint());
        }
        throw SecretFields.refusal("memory content");
      }
      case MemoryOutcome.Deleted deleted ->
          throw new IllegalStateException("a write came to a deletion");
    };
  }

  /** The store may have gone between the access check and the write: say which is missing. */
  private static Map<String, Object> orderedFields(
      String firstName, Object first, String secondName, Object second) {
    Map<String, Object> fields = new java.util.LinkedHashMap<>();
    fields.put(firstName, first);
    fields.put(secondName, second);
    return fields;
  }

  private StoreApiException noSuchMemoryOrStore(AuthorizedStore target, String memoryId) {
    return reader.store(target.store().id()).isPresent()
        ? noSuchMemory(memoryId)
        : StoreAccess.noSuchStore(target.store().id());
  }

  private static StoreApiException noSuchMemory(String memoryId) {
    return StoreApiException.notFound(
        "memory " + StoreAccess.printable(memoryId) + " was not found in this memory store");
  }

  private static StoreApiException stale() {
    return StoreApiException.conflict(
        StoreApiException.PRECONDITION_FAILED,
        "the memory's content is no longer the one the precondition names (it changed since it"
            + " was read); read it again",
        Map.of());
  }
}
