package dev.teammemory.server.memory;

import dev.teammemory.protocol.Checksums;
import dev.teammemory.protocol.DeleteResponse;
import dev.teammemory.protocol.ETags;
import dev.teammemory.protocol.ErrorCodes;
import dev.teammemory.protocol.ErrorEnvelope;
import dev.teammemory.protocol.Keys;
import dev.teammemory.protocol.MemoryStoreLocation;
import dev.teammemory.protocol.PutResponse;
import dev.teammemory.server.auth.AuthorizedRepository;
import dev.teammemory.server.auth.RepositoryAuthorization;
import dev.teammemory.server.errors.ApiException;
import dev.teammemory.server.limits.LimitsConfig;
import dev.teammemory.server.limits.ReadAdmission;
import dev.teammemory.server.secrets.SecretCheck;
import dev.teammemory.server.secrets.SecretFinding;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestQuery;

/**
 * {@code /api/claude_code/team_memory}: the protocol's GET, hashes view and upsert-merge PUT, and
 * our delete, history and purge extensions. Authentication has run before any of these (a filter);
 * each method then checks the repository and access, its parameters, and asks the store.
 */
@Path("/api/claude_code/team_memory")
@Produces(MediaType.APPLICATION_JSON)
public class TeamMemoryResource {

  private static final Logger LOG = Logger.getLogger(TeamMemoryResource.class);

  private final RepositoryAuthorization authorization;
  private final EntryStore store;
  private final SecretCheck secrets;
  private final LimitsConfig limits;
  private final MemoryMetrics metrics;
  private final ReadAdmission admission;

  @Inject
  TeamMemoryResource(
      RepositoryAuthorization authorization,
      EntryStore store,
      SecretCheck secrets,
      LimitsConfig limits,
      MemoryMetrics metrics,
      ReadAdmission admission) {
    this.authorization = authorization;
    this.store = store;
    this.secrets = secrets;
    this.limits = limits;
    this.metrics = metrics;
    this.admission = admission;
  }

  @GET
  public Response get(
      @RestQuery String repo,
      @RestQuery String view,
      @RestHeader("If-None-Match") String ifNoneMatch,
      @Context HttpServerRequest request) {
    AuthorizedRepository target = authorization.read(repo);
    boolean hashesOnly = hashesView(view);
    metrics.request(hashesOnly ? "hashes" : "get");
    if (hashesOnly || request.method() == HttpMethod.HEAD) {
      // A HEAD (routed here, as every GET) never writes a body: the ETag is the hashes view's.
      return switch (store.hashes(target, ifNoneMatch)) {
        case ReadOutcome.NotFound notFound -> throw RepositoryAuthorization.notFound(target.slug());
        case ReadOutcome.NotModified notModified -> notModified(notModified.checksum());
        case ReadOutcome.Hashes hashes -> withETag(hashes.body(), hashes.body().checksum());
        case ReadOutcome.Snapshot snapshot ->
            throw new IllegalStateException("a hashes read answered with a snapshot");
      };
    }
    // A 404 or a 304 is the repository row's answer: it holds nothing, so it takes no admission.
    Optional<ReadOutcome> answered = store.absentOrUnchanged(target, ifNoneMatch);
    if (answered.isPresent()) {
      return switch (answered.get()) {
        case ReadOutcome.NotModified notModified -> notModified(notModified.checksum());
        default -> throw RepositoryAuthorization.notFound(target.slug());
      };
    }
    // The body streams as it is read: a read holds a fetch of entries (its contents as strings,
    // as JSON bytes and as the buffer sent), never the repository.
    Runnable release =
        admission.admit(
            target.caller().id(),
            ReadAdmission.Kind.READ,
            ReadAdmission.HELD_PER_CONTENT_BYTE
                * Math.min(
                    store.contentBytes(target.slug()),
                    (long) SnapshotStream.ENTRY_ROWS_PER_FETCH * limits.maxEntryBytes()));
    return switch (store.snapshot(target)) {
      case ReadOutcome.NotFound notFound -> throw RepositoryAuthorization.notFound(target.slug());
      case ReadOutcome.NotModified notModified ->
          throw new IllegalStateException("a snapshot answered not modified");
      case ReadOutcome.Hashes hashes ->
          throw new IllegalStateException("a full read answered with the hashes view");
      case ReadOutcome.Snapshot snapshot -> {
        SnapshotStream body = snapshot.body();
        StreamingOutput streamed =
            out -> {
              try (body) {
                metrics.sent(body.writeTo(out));
              } finally {
                release.run();
              }
            };
        yield Response.ok(streamed, MediaType.APPLICATION_JSON_TYPE)
            .header("ETag", ETags.quote(body.checksum()))
            .build();
      }
    };
  }

  private static Response notModified(String checksum) {
    return Response.notModified().header("ETag", ETags.quote(checksum)).build();
  }

  @PUT
  public Response put(
      @RestQuery String repo,
      @RestHeader("Content-Type") String contentType,
      @RestHeader("If-Match") String ifMatch,
      InputStream body) {
    AuthorizedRepository target = authorization.write(repo);
    metrics.request("put");
    requireJson(contentType);
    byte[] bytes = readAll(body);
    metrics.received(bytes.length);
    PutBody parsed = PutBody.parse(bytes, limits.maxEntryBytes(), secrets::printable);
    // Keys and contents are scanned before the store takes the repository lock, reported after
    // its checks (the protocol's order), so that the lock is never held while rules run.
    List<SecretFinding> findings = secrets.scan(parsed.entries());
    PutOutcome outcome =
        store.put(target, parsed.entries(), Optional.ofNullable(ifMatch), findings);
    return switch (outcome) {
      case PutOutcome.Applied applied -> {
        LOG.infof(
            "PUT %s by %s: version %d, %d keys sent",
            target.slug(),
            target.caller().user(),
            applied.state().version(),
            parsed.entries().size());
        yield putResponse(applied.state(), applied.entryChecksums());
      }
      case PutOutcome.Unchanged unchanged ->
          putResponse(unchanged.state(), unchanged.entryChecksums());
      case PutOutcome.PreconditionFailed failed ->
          throw preconditionFailed(failed.currentChecksum());
      case PutOutcome.Archived archived -> throw archived(target);
      case PutOutcome.TooManyEntries cap ->
          throw new ApiException(
              413,
              new dev.teammemory.protocol.TooManyEntries(cap.maxEntries(), cap.receivedEntries())
                  .toEnvelope());
      case PutOutcome.RepositoryTooLarge large ->
          throw ApiException.of(
              413,
              ErrorCodes.REPOSITORY_TOO_LARGE,
              "after this PUT the repository would hold "
                  + large.bytes()
                  + " content bytes, over this server's limit of "
                  + large.maxBytes(),
              Map.of("max_bytes", large.maxBytes(), "bytes", large.bytes()));
      case PutOutcome.SecretDetected detected -> throw secretDetected(target, detected.findings());
    };
  }

  @DELETE
  public Response delete(
      @RestQuery String repo,
      @RestQuery String key,
      @RestQuery("expected_checksum") String expectedChecksum,
      @RestHeader("If-Match") String ifMatch) {
    AuthorizedRepository target = authorization.write(repo);
    metrics.request("delete");
    String validKey = keyParameter(key);
    Optional<String> expected = expectedChecksumParameter(expectedChecksum);
    // A key that holds a secret may still be deleted (that is how it leaves), but is never logged.
    return switch (store.delete(target, validKey, Optional.ofNullable(ifMatch), expected)) {
      case DeleteOutcome.Deleted deleted -> {
        LOG.infof(
            "DELETE %s %s by %s: version %d",
            target.slug(),
            secrets.keyInLog(validKey),
            target.caller().user(),
            deleted.state().version());
        yield stateResponse(deleted.state());
      }
      case DeleteOutcome.AlreadyDeleted already -> stateResponse(already.state());
      case DeleteOutcome.PreconditionFailed failed ->
          throw preconditionFailed(failed.currentChecksum());
      case DeleteOutcome.KeyChanged changed -> {
        metrics.conflict();
        throw ApiException.of(
            412,
            ErrorCodes.PRECONDITION_FAILED,
            "the key no longer has the content expected_checksum names (a teammate changed it);"
                + " read it again before deleting",
            Map.of("key", secrets.printable(validKey), "checksum", changed.currentChecksum()));
      }
      case DeleteOutcome.Archived archived -> throw archived(target);
      case DeleteOutcome.NoSuchRepository none ->
          throw RepositoryAuthorization.notFound(target.slug());
      case DeleteOutcome.NoSuchKey none -> throw noSuchKey(secrets.printable(validKey));
    };
  }

  /** Where the Memory Stores API serves this repository (PROTOCOL.md "Extensions"). */
  @GET
  @Path("store")
  public Response memoryStore(@RestQuery String repo) {
    AuthorizedRepository target = authorization.read(repo);
    metrics.request("store");
    return store
        .storeId(target.slug())
        .map(id -> Response.ok(new MemoryStoreLocation(id, "/v1/memory_stores/" + id)).build())
        .orElseThrow(
            () ->
                ApiException.of(
                    404,
                    ErrorCodes.NOT_FOUND,
                    "repository "
                        + target.slug()
                        + " has no memory store yet; create one with POST /v1/memory_stores"));
  }

  @GET
  @Path("history")
  public Response history(@RestQuery String repo, @RestQuery String key, @RestQuery String page) {
    AuthorizedRepository target = authorization.read(repo);
    metrics.request("history");
    String validKey = keyParameter(key);
    Optional<HistoryCursor> from = pageParameter(page);
    admission.admit(
        target.caller().id(),
        ReadAdmission.Kind.READ,
        ReadAdmission.HELD_PER_CONTENT_BYTE * limits.maxPageBytes());
    return store
        .history(target, validKey, from)
        .map(history -> Response.ok(history).build())
        .orElseThrow(() -> RepositoryAuthorization.notFound(target.slug()));
  }

  @DELETE
  @Path("history")
  public Response purge(@RestQuery String repo, @RestQuery String key, @RestQuery String version) {
    AuthorizedRepository target = authorization.write(repo);
    metrics.request("purge");
    String validKey = keyParameter(key);
    long validVersion = versionParameter(version);
    return switch (store.purge(target, validKey, validVersion)) {
      case PurgeOutcome.Purged purged -> {
        LOG.infof(
            "PURGE %s %s version %d by %s: %s",
            target.slug(),
            secrets.keyInLog(validKey),
            validVersion,
            target.caller().user(),
            purged.currentChanged()
                ? "it was the current content; repository now at version "
                    + purged.state().version()
                : "an older version; current content unchanged");
        yield stateResponse(purged.state());
      }
      case PurgeOutcome.NoSuchRepository none ->
          throw RepositoryAuthorization.notFound(target.slug());
      case PurgeOutcome.NoSuchVersion none ->
          throw ApiException.of(
              404,
              ErrorCodes.NOT_FOUND,
              "the key has no kept version " + validVersion,
              Map.of("key", secrets.printable(validKey), "version", validVersion));
    };
  }

  private static boolean hashesView(String view) {
    if (view == null) {
      return false;
    }
    if (view.equals("hashes")) {
      return true;
    }
    throw ApiException.of(
        400,
        ErrorCodes.INVALID_VIEW,
        "unknown view; the only view is 'hashes' (or none, for the whole repository)",
        Map.of("view", view));
  }

  private static void requireJson(String contentType) {
    MediaType type = null;
    try {
      type = contentType == null ? null : MediaType.valueOf(contentType);
    } catch (IllegalArgumentException e) {
      // unparseable: refused below like any other type
    }
    if (type == null
        || !type.getType().equalsIgnoreCase("application")
        || !type.getSubtype().equalsIgnoreCase("json")) {
      throw ApiException.of(
          415,
          ErrorCodes.UNSUPPORTED_MEDIA_TYPE,
          "a PUT body must be sent as Content-Type: application/json",
          contentType == null ? Map.of() : Map.of("content_type", contentType));
    }
  }

  private static byte[] readAll(InputStream body) {
    try (body) {
      return body.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the request body", e);
    }
  }

  private String keyParameter(String key) {
    if (key == null) {
      throw ApiException.of(
          400, ErrorCodes.INVALID_PARAMETER, "the key query parameter is required");
    }
    Keys.violation(key)
        .ifPresent(
            reason -> {
              throw ApiException.of(
                  400,
                  ErrorCodes.INVALID_KEY,
                  "invalid key: " + reason,
                  Map.of("key", secrets.printable(key)));
            });
    return key;
  }

  /** The cursor a previous page gave as {@code next_page}; never echoed, it may hold anything. */
  private static Optional<HistoryCursor> pageParameter(String page) {
    if (page == null) {
      return Optional.empty();
    }
    return Optional.of(
        HistoryCursor.parse(page)
            .orElseThrow(
                () ->
                    ApiException.of(
                        400,
                        ErrorCodes.INVALID_PARAMETER,
                        "the page parameter is not a cursor this server gave; send back the"
                            + " next_page of the previous page as it was")));
  }

  private static Optional<String> expectedChecksumParameter(String expectedChecksum) {
    if (expectedChecksum == null) {
      return Optional.empty();
    }
    if (!Checksums.isChecksum(expectedChecksum)) {
      throw ApiException.of(
          400,
          ErrorCodes.INVALID_PARAMETER,
          "expected_checksum must be an entry checksum (sha256:<64 lowercase hex digits>)",
          Map.of("expected_checksum", expectedChecksum));
    }
    return Optional.of(expectedChecksum);
  }

  private static ApiException archived(AuthorizedRepository target) {
    return ApiException.of(
        403,
        ErrorCodes.REPOSITORY_ARCHIVED,
        "the memory store of " + target.slug() + " is archived: it can be read but not written");
  }

  private static long versionParameter(String version) {
    try {
      long parsed = Long.parseLong(version == null ? "" : version);
      if (parsed > 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw ApiException.of(
        400,
        ErrorCodes.INVALID_PARAMETER,
        "the version query parameter must be a positive integer",
        version == null ? Map.of() : Map.of("version", version));
  }

  private ApiException preconditionFailed(String currentChecksum) {
    metrics.conflict();
    return ApiException.of(
        412,
        ErrorCodes.PRECONDITION_FAILED,
        "If-Match does not name the repository's current checksum; probe ?view=hashes and retry",
        Map.of("checksum", currentChecksum));
  }

  private static ApiException noSuchKey(String key) {
    return ApiException.of(
        404, ErrorCodes.NOT_FOUND, "the repository has no such key", Map.of("key", key));
  }

  private static ApiException secretDetected(
      AuthorizedRepository target, List<SecretFinding> findings) {
    for (SecretFinding finding : findings) {
      LOG.infof(
          "Refused PUT %s by %s: rule %s found a secret in %s, line %d (fingerprint %s)",
          target.slug(),
          target.caller().user(),
          finding.ruleId(),
          finding.part() == SecretFinding.Part.KEY
              ? "a key"
              : "the content of "
                  + (finding.keyClean() ? "key " + finding.key() : "a key that holds a secret"),
          finding.line(),
          finding.fingerprint());
    }
    List<Map<String, Object>> reported =
        findings.stream()
            .map(
                finding -> {
                  Map<String, Object> one = new LinkedHashMap<>();
                  one.put("key", finding.key());
                  one.put("ruleId", finding.ruleId());
                  one.put("line", finding.line());
                  one.put("field", finding.part().word());
                  return one;
                })
            .toList();
    SecretFinding first = findings.get(0);
    String where =
        first.part() == SecretFinding.Part.KEY
            ? "in the key " + first.key() + " itself"
            : "in key " + first.key() + " at line " + first.line();
    return new ApiException(
        422,
        ErrorEnvelope.of(
            ErrorCodes.SECRET_DETECTED,
            "refused: "
                + findings.size()
                + " secret(s) found, the first by rule "
                + first.ruleId()
                + " "
                + where
                + "; remove them and push again",
            Map.of("findings", reported)));
  }

  private static Response putResponse(RepositoryState state, Map<String, String> checksums) {
    return withETag(
        new PutResponse(state.version(), state.checksum(), state.lastModifiedText(), checksums),
        state.checksum());
  }

  private static Response stateResponse(RepositoryState state) {
    return withETag(
        new DeleteResponse(state.version(), state.checksum(), state.lastModifiedText()),
        state.checksum());
  }

  private static Response withETag(Object body, String checksum) {
    return Response.ok(body).header("ETag", ETags.quote(checksum)).build();
  }
}
