package dev.teammemory.server.stores;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.teammemory.protocol.store.StoreAnswers;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.auth.RepositorySlug;
import dev.teammemory.server.errors.StoreApiException;
import dev.teammemory.server.limits.ReadAdmission;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.InputStream;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code /v1/memory_stores}: the stores themselves. One repository is one store, bound by {@code
 * metadata.repo} (else by a {@code name} that is the repository's slug); creating a store for a
 * repository that has one answers that store.
 */
@Path("/v1/memory_stores")
@Produces(MediaType.APPLICATION_JSON)
public class MemoryStoresResource {

  private static final Logger LOG = Logger.getLogger(MemoryStoresResource.class);
  private static final char CURSOR = 's';
  private static final int MAX_NAME = 255;
  private static final int MAX_DESCRIPTION = 1024;
  private static final int MAX_METADATA_PAIRS = 16;
  private static final int MAX_METADATA_KEY = 64;
  private static final int MAX_METADATA_VALUE = 512;

  private final StoreAccess access;
  private final StoreReader reader;
  private final StoreWrites store;
  private final RepositoryAuthorization authorization;
  private final SecretFields secretFields;
  private final ReadAdmission admission;

  @Inject
  MemoryStoresResource(
      StoreAccess access,
      StoreReader reader,
      StoreWrites store,
      RepositoryAuthorization authorization,
      SecretFields secretFields,
      ReadAdmission admission) {
    this.access = access;
    this.reader = reader;
    this.store = store;
    this.authorization = authorization;
    this.secretFields = secretFields;
    this.admission = admission;
  }

  @POST
  public StoreAnswers.MemoryStore create(InputStream body) {
    ObjectNode request = StoreRequests.object(body);
    String name =
        StoreRequests.string(request, "name")
            .orElseThrow(() -> StoreApiException.invalid("name is required"));
    if (name.isEmpty() || name.length() > MAX_NAME) {
      throw StoreApiException.invalid("name must be 1 to " + MAX_NAME + " characters");
    }
    StoreRequests.storable(name, "name");
    String description = description(request).orElse("");
    Map<String, String> metadata = new LinkedHashMap<>();
    StoreRequests.object(request, "metadata")
        .ifPresent(given -> changeMetadata(metadata, given, Optional.empty()));
    secretFields.requireNone("memory store name", name);
    secretFields.requireNone("memory store description", description);
    requireNoSecretIn(metadata);
    Optional<String> boundRepo = Optional.ofNullable(metadata.remove(StoreRequests.REPO));
    RepositorySlug slug =
        boundRepo
            .map(
                repo ->
                    RepositorySlug.parse(repo)
                        .orElseThrow(
                            () ->
                                StoreApiException.invalid(
                                    "metadata.repo must be a GitHub repository slug ("
                                        + RepositorySlug.RULES
                                        + ")")))
            .orElseGet(
                () ->
                    RepositorySlug.parse(name)
                        .orElseThrow(
                            () ->
                                StoreApiException.invalid(
                                    "a memory store is bound to one GitHub repository: set"
                                        + " metadata.repo to owner/name, or make the name the"
                                        + " repository's owner/name")));
    AuthorizedRepository target = access.create(slug);
    Optional<String> storedName =
        boundRepo.isPresent() || !name.equals(slug.toString())
            ? Optional.of(name)
            : Optional.empty();
    StoreOutcome outcome =
        store.createStore(
            target,
            new StoreAttributes(storedName, description, StoreBodies.metadataJson(metadata)));
    if (!(outcome instanceof StoreOutcome.Done done)) {
      throw new IllegalStateException("creating a store came to " + outcome);
    }
    if (done.created()) {
      LOG.infof(
          "Memory store %s created for %s by %s", done.storeId(), slug, target.caller().user());
    }
    return current(done.storeId());
  }

  @GET
  public StoreAnswers.Page list(
      @RestQuery String limit,
      @RestQuery String page,
      @RestQuery("include_archived") String includeArchived,
      @RestQuery("created_at[gte]") String createdFrom,
      @RestQuery("created_at[lte]") String createdUntil) {
    int size = StoreRequests.limit(limit, false);
    Optional<Long> after = StoreRequests.numericPosition(page, CURSOR);
    admission.admit(
        authorization.caller().id(), ReadAdmission.Kind.READ, ReadAdmission.METADATA_PAGE_BYTES);
    boolean archived = StoreRequests.flag(includeArchived, "include_archived");
    Optional<Instant> from = StoreRequests.time(createdFrom, "created_at[gte]");
    Optional<Instant> until = StoreRequests.time(createdUntil, "created_at[lte]");
    List<StoreRow> shown =
        reader.stores(authorization.visible(), archived, from, until, after, size + 1);
    String next = null;
    if (shown.size() > size) {
      shown = shown.subList(0, size);
      next = StoreRequests.cursor(CURSOR, Long.toString(shown.get(size - 1).repositoryId()));
    }
    return new StoreAnswers.Page(shown.stream().map(StoreBodies::of).toList(), next);
  }

  @GET
  @Path("{store}")
  public StoreAnswers.MemoryStore retrieve(@RestPath("store") String storeId) {
    return StoreBodies.of(access.read(storeId).store());
  }

  @POST
  @Path("{store}")
  public StoreAnswers.MemoryStore update(@RestPath("store") String storeId, InputStream body) {
    AuthorizedStore target = access.write(storeId);
    ObjectNode request = StoreRequests.object(body);
    StoreRow current = target.store();
    Optional<String> name = StoreRequests.string(request, "name");
    String currentName = current.name().orElse(current.slug().toString());
    if (name.isPresent() && !name.get().equals(currentName)) {
      throw StoreApiException.invalid(
          "a memory store's name cannot be changed: the store stays bound to its repository");
    }
    Optional<String> description = description(request);
    Optional<ObjectNode> metadataChange = StoreRequests.object(request, "metadata");
    description.ifPresent(text -> secretFields.requireNone("memory store description", text));
    metadataChange.ifPresent(
        change -> {
          // Checked as given, before the change is applied under the lock.
          Map<String, String> given = new LinkedHashMap<>();
          changeMetadata(given, change, Optional.of(current.slug()));
          requireNoSecretIn(given);
        });
    // Applied to the store as it is under the update's lock, so that two updates of different
    // keys both keep theirs.
    StoreOutcome outcome =
        store.updateStore(
            target.target(),
            storeId,
            locked -> {
              Map<String, String> metadata =
                  new LinkedHashMap<>(StoreBodies.metadataOf(locked.metadataJson()));
              metadataChange.ifPresent(
                  given -> changeMetadata(metadata, given, Optional.of(current.slug())));
              return new StoreAttributes(
                  locked.name(),
                  description.orElse(locked.description()),
                  StoreBodies.metadataJson(metadata));
            });
    return switch (outcome) {
      case StoreOutcome.Done done -> current(storeId);
      case StoreOutcome.NotFound none -> throw StoreAccess.noSuchStore(storeId);
      case StoreOutcome.Archived archived -> throw archived(storeId);
    };
  }

  @DELETE
  @Path("{store}")
  public StoreAnswers.Deleted delete(@RestPath("store") String storeId) {
    AuthorizedStore target = access.write(storeId);
    return switch (store.deleteStore(target.target(), storeId)) {
      case StoreOutcome.Done done -> {
        LOG.infof(
            "Memory store %s of %s deleted by %s",
            storeId, target.store().slug(), target.target().caller().user());
        yield new StoreAnswers.Deleted(storeId, "memory_store_deleted");
      }
      case StoreOutcome.NotFound none -> throw StoreAccess.noSuchStore(storeId);
      case StoreOutcome.Archived archived -> throw archived(storeId);
    };
  }

  @POST
  @Path("{store}/archive")
  public StoreAnswers.MemoryStore archive(@RestPath("store") String storeId) {
    AuthorizedStore target = access.write(storeId);
    return switch (store.archiveStore(target.target(), storeId)) {
      case StoreOutcome.Done done -> current(storeId);
      case StoreOutcome.NotFound none -> throw StoreAccess.noSuchStore(storeId);
      case StoreOutcome.Archived archived -> throw archived(storeId);
    };
  }

  /** The {@code 400} of a write to an archived store (its message starts as the SDKs expect). */
  static StoreApiException archived(String storeId) {
    return StoreApiException.invalid(
        "cannot modify archived resource: memory store "
            + StoreAccess.printable(storeId)
            + " is archived; it can be read but not written");
  }

  private StoreAnswers.MemoryStore current(String storeId) {
    return StoreBodies.of(
        reader.store(storeId).orElseThrow(() -> StoreAccess.noSuchStore(storeId)));
  }

  /** Refuses metadata whose keys or values hold a secret. */
  private void requireNoSecretIn(Map<String, String> metadata) {
    metadata.forEach(
        (key, value) -> {
          secretFields.requireNone("memory store metadata", key);
          secretFields.requireNone("memory store metadata", value);
        });
  }

  private static Optional<String> description(ObjectNode request) {
    Optional<String> description =
        StoreRequests.string(request, "description")
            .map(text -> StoreRequests.storable(text, "description"));
    if (description.isPresent() && description.get().length() > MAX_DESCRIPTION) {
      throw StoreApiException.invalid(
          "description must be at most " + MAX_DESCRIPTION + " characters");
    }
    return description;
  }

  /**
   * Applies the request's {@code metadata} to {@code metadata}: a string sets a key, {@code null}
   * removes it. The {@code repo} binding of an existing store ({@code bound}) cannot change.
   */
  private static void changeMetadata(
      Map<String, String> metadata, ObjectNode given, Optional<RepositorySlug> bound) {
    for (Iterator<Map.Entry<String, JsonNode>> fields = given.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      String key = StoreRequests.storable(field.getKey(), "a metadata key");
      JsonNode value = field.getValue();
      if (key.isEmpty() || key.length() > MAX_METADATA_KEY) {
        throw StoreApiException.invalid(
            "metadata keys must be 1 to " + MAX_METADATA_KEY + " characters");
      }
      if (!value.isNull() && !value.isTextual()) {
        throw StoreApiException.invalid("metadata." + key + " must be a string or null");
      }
      if (value.isTextual()) {
        StoreRequests.storable(value.textValue(), "a metadata value");
      }
      if (value.isTextual() && value.textValue().length() > MAX_METADATA_VALUE) {
        throw StoreApiException.invalid(
            "metadata values must be at most " + MAX_METADATA_VALUE + " characters");
      }
      if (bound.isPresent() && key.equals(StoreRequests.REPO)) {
        boolean same =
            value.isTextual()
                && RepositorySlug.parse(value.textValue())
                    .map(slug -> slug.key().equals(bound.get().key()))
                    .orElse(false);
        if (!same) {
          throw StoreApiException.invalid(
              "metadata.repo cannot be changed: a memory store stays bound to its repository");
        }
        continue;
      }
      if (value.isNull()) {
        metadata.remove(key);
      } else {
        metadata.put(key, value.textValue());
      }
    }
    // Every store is served with its repo pair, whether or not the request named it.
    int pairs = metadata.size() + (metadata.containsKey(StoreRequests.REPO) ? 0 : 1);
    if (pairs > MAX_METADATA_PAIRS) {
      throw StoreApiException.invalid(
          "metadata may hold at most " + MAX_METADATA_PAIRS + " key-value pairs");
    }
  }
}
